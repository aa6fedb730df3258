import { orderNumber } from "../src/shared/format.js";
import { orderMessages } from "../src/shared/messages/orders.js";
import { expectAccessible } from "./support/axe.js";
import { origin, signInAsAdmin, uniqueName } from "./support/data.js";
import { expect, type Products, test } from "./support/fixtures.js";

// Issue 34, item 6: one order, one number (shared/format.ts orderNumber) wherever it appears, beside
// the spec's serial; and a booking form that starts from what the shop knows of the customer.

const form = orderMessages.form;

/** A product of this spec's own: what it books moves no stock another journey counts on. */
const ownProduct = (products: Products, tag: string) =>
  products.add({
    name: uniqueName(`Zz Number ${tag}`),
    image: "/media/products/gale-120-high-static-pressure-fan.svg",
    price: 14,
    quantity: 500,
    category: "cooling-fans",
    description: "Made by the browser tests.",
  });

test("My Orders, the payment page and Manage Orders name an order by the same number", async ({
  page,
  browser,
  customer: _,
  products,
  orders,
}) => {
  const product = await ownProduct(products, "list");
  const order = await orders.place(page.request, product.id);
  const number = orderNumber(order.id);

  // My Orders: the spec's serial stays, the order's own number under the product, at both widths.
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto("/dashboard");
  const row = page.getByRole("row").filter({ hasText: product.name });
  await expect(row.getByRole("rowheader")).toHaveText("1");
  await expect(row.getByRole("cell").filter({ hasText: product.name })).toContainText(number);
  await expectAccessible(page, "my orders with numbers, 1440 px");
  await page.setViewportSize({ width: 390, height: 844 });
  const card = page.getByRole("listitem").filter({ hasText: product.name });
  await expect(card.getByText(number)).toBeVisible();
  await expectAccessible(page, "my orders with numbers, 390 px");

  // The payment page.
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`/dashboard/payment/${order.id}`);
  await expect(page.getByRole("term").filter({ hasText: orderMessages.number })).toBeVisible();
  await expect(page.getByRole("definition").filter({ hasText: number })).toBeVisible();
  await expectAccessible(page, "payment page with its number, 1440 px");
  await page.setViewportSize({ width: 390, height: 844 });
  await expectAccessible(page, "payment page with its number, 390 px");

  // Manage Orders shows it and finds the order by it.
  const admin = await browser.newContext({ baseURL: test.info().project.use.baseURL });
  try {
    await signInAsAdmin(admin.request);
    const adminPage = await admin.newPage();
    await adminPage.setViewportSize({ width: 1440, height: 900 });
    await adminPage.goto(`/dashboard/manageOrders?${new URLSearchParams({ search: number })}`);
    const found = adminPage.getByRole("row").filter({ hasText: product.name });
    await expect(found).toHaveCount(1);
    await expect(found).toContainText(number);
  } finally {
    await admin.close();
  }
});

test("the booking form starts from the sign-up phone, then from the saved profile, and stays editable", async ({
  page,
  customer: _,
  products,
}) => {
  const product = await ownProduct(products, "prefill");
  const address = page.getByLabel(form.address, { exact: true });
  const phone = page.getByLabel(form.phone, { exact: true });

  // No profile yet: the phone given at sign-up (e2e/support/data.ts signUp), no address.
  await page.goto(`/tool/${product.id}`);
  await expect(phone).toHaveValue("+1 555 0142");
  await expect(address).toHaveValue("");

  // A saved profile: its address with the city, and its phone.
  const saved = await page.request.post("/api/profile", {
    headers: origin,
    data: { address: "9 Prefill Road", city: "Austin", phone: "5550199" },
  });
  expect(saved.status()).toBe(201);
  await page.reload();
  await expect(address).toHaveValue("9 Prefill Road, Austin");
  await expect(phone).toHaveValue("5550199");

  // The customer can still change them.
  await phone.fill("5550123");
  await expect(phone).toHaveValue("5550123");
  await address.fill("10 Other Street, Dallas");
  await expect(address).toHaveValue("10 Other Street, Dallas");
  await page.setViewportSize({ width: 390, height: 844 });
  await expectAccessible(page, "booking form prefilled, 390 px");
});
