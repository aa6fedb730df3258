import type { Locator, Page } from "@playwright/test";
import sharp from "sharp";
import type { ProductList } from "../src/shared/catalog.js";
import { adminMessages } from "../src/shared/messages/admin.js";
import { dashboardMessages } from "../src/shared/messages/dashboard.js";
import { orderMessages } from "../src/shared/messages/orders.js";
import { sessionMessages } from "../src/shared/messages/sessions.js";
import { uploadMessages } from "../src/shared/messages/uploads.js";
import { userMessages } from "../src/shared/messages/users.js";
import type { Order } from "../src/shared/orders.js";
import { expectAccessible } from "./support/axe.js";
import { uniqueName } from "./support/data.js";
import { expect, test } from "./support/fixtures.js";

const t = adminMessages;

type AdminPage = { path: string; heading: string; loaded: (page: Page) => Locator };

/** The admin pages, each with what it shows once its data has loaded. */
const ADMIN_PAGES: readonly AdminPage[] = [
  {
    path: "/dashboard/users",
    heading: dashboardMessages.users,
    loaded: (page) => page.getByRole("table", { name: userMessages.caption }),
  },
  {
    path: "/dashboard/admin",
    heading: dashboardMessages.makeAdmin,
    loaded: (page) => page.getByRole("table", { name: userMessages.rolesCaption }),
  },
  {
    path: "/dashboard/manageOrders",
    heading: dashboardMessages.manageOrders,
    loaded: (page) => page.getByRole("table", { name: t.orders.caption }),
  },
  {
    path: "/dashboard/addProduct",
    heading: dashboardMessages.addProduct,
    loaded: (page) => page.getByRole("article").first(),
  },
  {
    path: "/dashboard/adminmakingPage",
    heading: dashboardMessages.adminOverview,
    loaded: (page) => page.getByRole("link", { name: new RegExp(`^${t.overview.users}`) }),
  },
];

/** The table row of the one user or order that mentions `email`. */
function rowOf(page: Page, email: string) {
  return page.getByRole("row").filter({ hasText: email });
}

const pngImage = () =>
  sharp({ create: { width: 96, height: 72, channels: 3, background: "#22d3ee" } })
    .png()
    .toBuffer();

test("an admin makes a user admin, then removes admin", async ({ page, request, users, admin: _ }) => {
  const target = await users.signUp(request, { tag: "promoted", name: uniqueName("Promoted") });
  await page.goto("/dashboard/admin");
  const row = rowOf(page, target.email);
  await expect(row.getByText(userMessages.roles.user, { exact: true })).toBeVisible();

  // Make Admin asks first: Cancel changes nothing.
  await row.getByRole("button", { name: userMessages.makeAdminFor(target.name) }).click();
  const confirm = page.getByRole("dialog", { name: userMessages.makeAdminTitle(target.name) });
  await expect(confirm).toContainText(target.email);
  await confirm.getByRole("button", { name: userMessages.cancel }).click();
  await expect(confirm).toBeHidden();
  expect(await (await request.get("/api/me")).json()).toMatchObject({ role: "user" });
  await row.getByRole("button", { name: userMessages.makeAdminFor(target.name) }).click();
  await confirm.getByRole("button", { name: userMessages.makeAdmin }).click();
  await expect(page.getByText(userMessages.madeAdmin)).toBeVisible();
  await expect(row.getByText(userMessages.roles.admin, { exact: true })).toBeVisible();
  expect(await (await request.get("/api/me")).json()).toMatchObject({ role: "admin" });

  await row.getByRole("button", { name: userMessages.removeAdminFor(target.name) }).click();
  await expect(page.getByText(userMessages.removedAdmin)).toBeVisible();
  await expect(row.getByRole("button", { name: userMessages.makeAdminFor(target.name) })).toBeVisible();
  expect(await (await request.get("/api/me")).json()).toMatchObject({ role: "user" });
});

test("an admin removes a user through the confirm dialog, by keyboard", async ({
  page,
  request,
  users,
  admin,
}) => {
  const target = await users.signUp(request, { tag: "removed", name: uniqueName("Removed") });
  await page.goto("/dashboard/users");
  const row = rowOf(page, target.email);
  await expect(row).toContainText(target.name);
  const remove = row.getByRole("button", { name: userMessages.removeFor(target.name) });
  const dialog = page.getByRole("dialog", { name: userMessages.confirmTitle });

  // Escape cancels, and focus returns to the button that opened the dialog.
  await remove.click();
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText(target.email);
  await expect(dialog.getByRole("button", { name: t.cancel })).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(remove).toBeFocused();

  await page.keyboard.press("Enter");
  await expect(dialog).toBeVisible();
  await page.keyboard.press("Shift+Tab");
  await expect(dialog.getByRole("button", { name: userMessages.remove, exact: true })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page.getByText(userMessages.deleted)).toBeVisible();
  await expect(row).toHaveCount(0);
  // The row that held focus is gone: focus waits on the table instead of falling to the page.
  await expect(page.getByRole("region", { name: userMessages.caption })).toBeFocused();
  expect((await request.get("/api/me")).status()).toBe(401);

  // The admin's own row offers no Remove, which could only fail (the server refuses it too:
  // users/routes.test.ts). (The demo admin is the oldest account, pages away from the newest: a
  // search finds it.)
  await page.getByRole("searchbox", { name: userMessages.searchLabel }).fill(admin.email);
  const own = rowOf(page, admin.email);
  await expect(
    own.getByRole("button", { name: sessionMessages.endUserSessionsNamed(admin.email) }),
  ).toBeVisible();
  await expect(own.getByRole("button", { name: userMessages.removeFor(admin.name) })).toHaveCount(0);
});

test("an admin adds a product with an image, restocks it, and finds it on /tools", async ({
  page,
  admin: _,
}) => {
  await page.goto("/dashboard/addProduct");
  const p = t.products;
  const name = uniqueName("E2E Keyboard");

  await page.getByRole("button", { name: p.submit }).click();
  await expect(page.getByText(uploadMessages.missing)).toBeVisible();
  await expect(page.getByText(adminMessages.products.nameRequired)).toBeVisible();
  await expect(page.getByText(adminMessages.products.categoryInvalid)).toBeVisible();

  await page
    .getByLabel(p.image)
    .setInputFiles({ name: "keyboard.png", mimeType: "image/png", buffer: await pngImage() });
  await page.getByLabel(p.name, { exact: true }).fill(name);
  await page.getByLabel(p.price).fill("49");
  await page.getByLabel(p.quantity).fill("120");
  await page.getByLabel(p.category).selectOption({ label: "Keyboards" });
  await page.getByLabel(p.description).fill("A compact board made by the browser tests.");
  await page.getByRole("button", { name: p.submit }).click();
  await expect(page.getByText(p.created(name))).toBeVisible();
  await expect(page.getByLabel(p.name, { exact: true })).toHaveValue("");

  const card = page.getByRole("article").filter({ has: page.getByRole("heading", { name }) });
  await expect(card.getByRole("img", { name })).toHaveAttribute("src", /^\/api\/images\/[a-f0-9]{64}\./);
  await expect(card).toContainText("$49");
  await expect(card).toContainText(p.stock("120"));

  await card.getByRole("button", { name: p.editFor(name) }).click();
  const edit = card.getByRole("form", { name: p.editTitle(name) });
  await expect(edit.getByLabel(p.name, { exact: true })).toBeFocused();
  await edit.getByLabel(p.price).fill("59");
  await edit.getByLabel(p.quantity).fill("30");
  await edit.getByRole("button", { name: p.save }).click();
  await expect(page.getByText(p.updated(name))).toBeVisible();
  await expect(card).toContainText("$59");
  await expect(card).toContainText(p.stock("30"));
  await expect(card.getByRole("button", { name: p.editFor(name) })).toBeFocused();

  await page.goto(`/tools?search=${encodeURIComponent(name)}`);
  await expect(page.getByRole("main").getByRole("article").getByRole("heading")).toHaveText([name]);
  await expect(page.getByRole("main").getByText("$59", { exact: true })).toBeVisible();
});

test("a failed image upload posts no product and says why", async ({ page, admin: _ }) => {
  const posted: string[] = [];
  page.on("request", (req) => {
    if (req.method() === "POST" && new URL(req.url()).pathname === "/api/products") posted.push(req.url());
  });
  await page.route("**/api/uploads", (route) =>
    route.fulfill({
      status: 415,
      contentType: "application/problem+json",
      body: JSON.stringify({
        type: "about:blank",
        title: "Unsupported Media Type",
        status: 415,
        detail: uploadMessages.unsupported,
      }),
    }),
  );
  await page.goto("/dashboard/addProduct");
  const p = t.products;
  await page
    .getByLabel(p.image)
    .setInputFiles({ name: "part.png", mimeType: "image/png", buffer: await pngImage() });
  await page.getByLabel(p.name, { exact: true }).fill(uniqueName("Never posted"));
  await page.getByLabel(p.price).fill("10");
  await page.getByLabel(p.quantity).fill("10");
  await page.getByLabel(p.category).selectOption("mice");
  await page.getByLabel(p.description).fill("The upload of this one fails.");
  await page.getByRole("button", { name: p.submit }).click();
  await expect(page.getByText(uploadMessages.unsupported)).toBeVisible();
  await expect(page.getByRole("button", { name: p.submit })).toBeEnabled();
  expect(posted).toEqual([]);
});

test("an admin ships a paid order and removes an unpaid one through the dialog", async ({
  page,
  request,
  users,
  orders,
  admin: _,
}) => {
  const list = (await (await request.get("/api/products?sort=price-asc&pageSize=3")).json()) as ProductList;
  // A cheap product of its own, so the stock other journeys take is not this one's.
  const item = list.items[2];
  if (!item) throw new Error("The demo catalog has fewer than 3 products");
  const customer = await users.signUp(request, { tag: "shipper", name: uniqueName("Shipper") });
  const paid = await orders.place(request, item.id);
  await orders.pay(request, paid, customer);
  const unpaid = await orders.place(request, item.id);

  // Manage Orders shows a page of the newest orders: the search finds this customer's two.
  await page.goto(`/dashboard/manageOrders?search=${encodeURIComponent(customer.email)}`);
  const o = t.orders;
  const rows = rowOf(page, customer.email);
  await expect(rows).toHaveCount(2);
  const paidRow = rows.filter({
    has: page.getByRole("button", { name: o.shipFor(item.name, customer.name) }),
  });
  const unpaidRow = rows.filter({ hasText: o.notPaid });
  await expect(paidRow).toContainText(o.paid);
  await expect(unpaidRow.getByRole("img", { name: o.imageAlt(item.name) })).toBeVisible();

  // Ship opens its dialog; its carrier and tracking number are optional (e2e/order-lifecycle.spec.ts).
  await paidRow.getByRole("button", { name: o.shipFor(item.name, customer.name) }).click();
  const shipDialog = page.getByRole("dialog", { name: orderMessages.ship.title });
  await shipDialog.getByRole("button", { name: orderMessages.ship.confirm, exact: true }).click();
  await expect(page.getByText(o.markedShipped)).toBeVisible();
  await expect(shipDialog).toBeHidden();
  await expect(rows.filter({ hasText: o.shipped })).toHaveCount(1);
  expect(((await (await request.get(`/api/orders/${paid.id}`)).json()) as Order).status).toBe("shipped");

  const remove = unpaidRow.getByRole("button", { name: o.removeFor(item.name, customer.name) });
  const dialog = page.getByRole("dialog", { name: orderMessages.confirmDelete });
  await remove.click();
  await dialog.getByRole("button", { name: t.cancel }).click();
  await expect(dialog).toBeHidden();
  await expect(rows).toHaveCount(2);

  await remove.click();
  await expect(dialog).toBeVisible();
  await dialog.getByRole("button", { name: o.remove, exact: true }).click();
  await expect(page.getByText(orderMessages.removed)).toBeVisible();
  await expect(rows).toHaveCount(1);
  expect((await request.get(`/api/orders/${unpaid.id}`)).status()).toBe(404);
});

test("the overview shows the counts, each linking to its page", async ({ page, admin: _ }) => {
  const o = t.overview;
  const cards: ReadonlyArray<[label: string, path: string]> = [
    [o.users, "/dashboard/users"],
    [o.unpaid, "/dashboard/manageOrders"],
    [o.toShip, "/dashboard/manageOrders"],
    [o.shipped, "/dashboard/manageOrders"],
    [o.refunded, "/dashboard/manageOrders?status=refunded"],
    [o.expired, "/dashboard/manageOrders?status=expired"],
    [o.lowStock, "/dashboard/addProduct"],
  ];
  await page.goto("/dashboard/adminmakingPage");
  for (const [label, path] of cards) {
    // A label may hold brackets ("Expired orders (never paid)"): matched as text, not as a pattern.
    const literal = label.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    const link = page.getByRole("link", { name: new RegExp(`^${literal}\\s*[0-9,]+$`) });
    await expect(link).toHaveAttribute("href", path);
  }
  await page.getByRole("link", { name: new RegExp(`^${o.users}`) }).click();
  await expect(page).toHaveURL("/dashboard/users");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(dashboardMessages.users);
});

test("a customer on an admin page sees that it is for admins only", async ({ page, customer: _ }) => {
  for (const { path, heading } of ADMIN_PAGES) {
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(heading);
    await expect(page.getByRole("heading", { name: t.only })).toBeVisible();
    await expect(page.getByText(t.onlyLead)).toBeVisible();
    await expect(page.getByRole("table")).toHaveCount(0);
    await expectAccessible(page, `${path} as a customer`);
  }
});

for (const { path, heading, loaded } of ADMIN_PAGES) {
  test(`${path} has no serious or critical axe violations`, async ({ page, admin: _ }) => {
    await page.emulateMedia({ reducedMotion: "reduce" });
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(heading);
    await expect(loaded(page)).toBeVisible();
    await expectAccessible(page, path);
  });
}

test("the confirm dialog has no serious or critical axe violations", async ({ page, admin: _ }) => {
  await page.goto("/dashboard/users");
  await page
    .getByRole("button", { name: new RegExp(`^${userMessages.remove} `) })
    .first()
    .click();
  await expect(page.getByRole("dialog", { name: userMessages.confirmTitle })).toBeVisible();
  await expectAccessible(page, "/dashboard/users with the dialog open");
});
