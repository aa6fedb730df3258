import { AxeBuilder } from "@axe-core/playwright";
import type { APIRequestContext, Page } from "@playwright/test";
import type { Profile } from "../src/shared/accounts.js";
import type { Product } from "../src/shared/catalog.js";
import { adminMessages } from "../src/shared/messages/admin.js";
import { commonMessages } from "../src/shared/messages/common.js";
import { orderMessages } from "../src/shared/messages/orders.js";
import { profileMessages } from "../src/shared/messages/profile.js";
import type { OrderPage } from "../src/shared/orders.js";
import { origin, uniqueName } from "./support/data.js";
import { expect, type Products, test } from "./support/fixtures.js";

// Forms prefilled from the server keep what the user typed before the data arrived: the answer is
// held back until the test has typed, then let through; the loaded values fill only the fields the
// user left alone.

/**
 * Holds the page's GET requests for `pathname` until `release()`, then lets them reach the shop.
 * `asked` settles once the page has sent the first one (and fails if it sends none).
 */
async function holdBack(page: Page, pathname: string) {
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(
    (url) => url.pathname === pathname,
    async (route) => {
      if (route.request().method() !== "GET") return route.fallback();
      await released;
      return route.continue();
    },
  );
  const asked = page.waitForRequest(
    (request) => request.method() === "GET" && new URL(request.url()).pathname === pathname,
  );
  return { asked, release };
}

async function saveProfile(
  request: APIRequestContext,
  fields: { address: string; city: string; phone: string },
) {
  const response = await request.post("/api/profile", { headers: origin, data: fields });
  expect(response.status()).toBe(201);
}

/**
 * A product of this spec's own, made by the admin through the API: what the tests book or change
 * moves no stock or price that other journeys count on. Named to sort last by name and to match no
 * storefront search, so the catalog's pages stay as they were.
 */
const keptProduct = (products: Products, tag: string) =>
  products.add({
    name: uniqueName(`Zz Keep ${tag}`),
    image: "/media/products/echo-7-1-surround-gaming-headset.svg",
    price: 40,
    quantity: 100,
    category: "headphones",
    description: "Made by the browser tests.",
  });

/** No serious or critical axe violation, once no colour is mid-transition (see support/axe.ts). */
async function expectAccessibleNow(page: Page, label: string) {
  await expect
    .poll(() =>
      page.evaluate(
        `document.getAnimations().every((a) => !(a instanceof CSSTransition) || a.playState !== "running")`,
      ),
    )
    .toBe(true);
  const result = await new AxeBuilder({ page }).analyze();
  const serious = result.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(
    serious.map((v) => `${label}: ${v.id} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`),
  ).toEqual([]);
}

test("profile: what is typed while the saved profile loads is kept, and Update saves it", async ({
  page,
  customer: _,
}) => {
  const text = profileMessages.form;
  await saveProfile(page.request, { address: "1 Saved Street", city: "Savedville", phone: "5550100" });
  const profile = await holdBack(page, "/api/profile");

  await page.goto("/dashboard/myProfile");
  await profile.asked;
  const address = page.getByLabel(text.address, { exact: true });
  const city = page.getByLabel(text.city, { exact: true });
  const phone = page.getByLabel(text.phone, { exact: true });
  await address.fill("22 Typed Avenue");
  await city.fill("Typedtown");
  await expect(page.getByRole("status").filter({ hasText: commonMessages.loading })).toBeVisible();
  // Which mode applies depends on whether a profile exists: the checkboxes wait for the answer.
  await expect(page.getByLabel(text.updateMode)).toBeDisabled();
  await expectAccessibleNow(page, "profile page while the profile loads");

  profile.release();
  // The field left alone shows the saved profile, so it has arrived; the typed ones kept their text.
  await expect(phone).toHaveValue("5550100");
  await expect(page.getByText(text.saved, { exact: true })).toBeVisible();
  await expect(page.getByText("1 Saved Street")).toBeVisible();
  await expect(address).toHaveValue("22 Typed Avenue");
  await expect(city).toHaveValue("Typedtown");
  await expect(page.getByLabel(text.updateMode)).toBeChecked();

  await page.getByRole("button", { name: text.update, exact: true }).click();
  await expect(page.getByText(profileMessages.updated)).toBeVisible();
  await expect(page.getByText("22 Typed Avenue")).toBeVisible();
  const saved = (await (await page.request.get("/api/profile")).json()) as Profile;
  expect(saved).toMatchObject({ address: "22 Typed Avenue", city: "Typedtown", phone: "5550100" });
});

test("booking: an address typed while the profile loads is kept, the contact number comes from it", async ({
  page,
  products,
  customer: _,
}) => {
  const form = orderMessages.form;
  const item = await keptProduct(products, "Booking");
  await saveProfile(page.request, { address: "9 Saved Road", city: "Austin", phone: "5550199" });
  const profile = await holdBack(page, "/api/profile");

  await page.goto(`/tool/${item.id}`);
  await profile.asked;
  const address = page.getByLabel(form.address, { exact: true });
  const phone = page.getByLabel(form.phone, { exact: true });
  await address.fill("4 Typed Lane, Dallas");

  profile.release();
  await expect(phone).toHaveValue("5550199");
  await expect(address).toHaveValue("4 Typed Lane, Dallas");

  await page.getByRole("button", { name: form.book }).click();
  await expect(page.getByText(orderMessages.booked)).toBeVisible();
  await expect(page).toHaveURL("/");
  const mine = ((await (await page.request.get("/api/orders/mine")).json()) as OrderPage).items;
  expect(mine).toHaveLength(1);
  expect(mine[0]).toMatchObject({ address: "4 Typed Lane, Dallas", phone: "5550199", quantity: 10 });
});

test("booking: a saved profile fills the address and contact number", async ({
  page,
  products,
  customer: _,
}) => {
  const form = orderMessages.form;
  const item = await keptProduct(products, "Prefill");
  await saveProfile(page.request, { address: "9 Saved Road", city: "Austin", phone: "5550199" });

  await page.goto(`/tool/${item.id}`);
  await expect(page.getByLabel(form.address, { exact: true })).toHaveValue("9 Saved Road, Austin");
  await expect(page.getByLabel(form.phone, { exact: true })).toHaveValue("5550199");
});

test("admin edit: a price typed while the product loads is kept, the stock comes from the server", async ({
  page,
  products,
  admin: _,
}) => {
  const p = adminMessages.products;
  const item = await keptProduct(products, "Edit");
  await page.goto("/dashboard/addProduct");
  const card = page.getByRole("article").filter({ has: page.getByRole("heading", { name: item.name }) });
  await expect(card).toContainText(p.stock("100"));

  // Orders and other admins change the product while the list sits in the page.
  const changed = await page.request.patch(`/api/products/${item.id}`, {
    headers: origin,
    data: { quantity: 77, description: "Changed on the server." },
  });
  expect(changed.status()).toBe(200);
  const product = await holdBack(page, `/api/admin/products/${item.id}`);

  await card.getByRole("button", { name: p.editFor(item.name) }).click();
  await product.asked;
  const edit = card.getByRole("form", { name: p.editTitle(item.name) });
  const price = edit.getByLabel(p.price);
  const stock = edit.getByLabel(p.quantity);
  const description = edit.getByLabel(p.description);
  // The form opens on its first field, the name.
  await expect(edit.getByLabel(p.name, { exact: true })).toBeFocused();
  await price.fill("55");
  await expect(stock).toHaveValue("100");

  product.release();
  await expect(stock).toHaveValue("77");
  await expect(description).toHaveValue("Changed on the server.");
  await expect(price).toHaveValue("55");

  await edit.getByRole("button", { name: p.save }).click();
  await expect(page.getByText(p.updated(item.name))).toBeVisible();
  await expect(card).toContainText("$55");
  const saved = (await (await page.request.get(`/api/products/${item.id}`)).json()) as Product;
  expect(saved).toMatchObject({ price: 55, quantity: 77, description: "Changed on the server." });
});
