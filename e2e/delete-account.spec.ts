import { accountDeletionMessages as m } from "../src/shared/messages/account-deletion.js";
import { commonMessages } from "../src/shared/messages/common.js";
import type { Order, OrderPage } from "../src/shared/orders.js";
import { expectAccessible } from "./support/axe.js";
import { origin, uniqueName } from "./support/data.js";
import { expect, test } from "./support/fixtures.js";
import { stockOf } from "./support/payment.js";

test("a customer deletes their account in Profile: signed out, unpaid orders gone, paid ones kept", async ({
  page,
  customer,
  products,
  orders,
  adminApi,
}) => {
  const product = await products.add({
    name: uniqueName("Deletion Fan"),
    image: "/media/products/gale-120-high-static-pressure-fan.svg",
    price: 19,
    quantity: 500,
    description: "A fan stocked for the account deletion journey.",
    category: "cooling-fans",
  });
  const pending: Order = await orders.place(page.request, product.id, 10);
  const paid: Order = await orders.place(page.request, product.id, 12);
  await orders.pay(page.request, paid, customer);
  expect(await stockOf(page, product.id)).toBe(478);

  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto("/dashboard/myProfile");
  const card = page.getByRole("region", { name: m.heading, exact: true });
  await expect(card).toBeVisible();
  await expect(card.getByText(m.kept)).toBeVisible();
  await expectAccessible(page, "profile, delete my account, 1440 px");

  const password = card.getByLabel(m.password, { exact: true });
  const submit = card.getByRole("button", { name: m.submit });
  // No password: asked for, and nothing else happens.
  await submit.click();
  await expect(card.getByText(m.passwordRequired)).toBeVisible();
  // A wrong one: the confirm, then the server's refusal under the field; the account stays.
  await password.fill("Wr0ngPassword");
  await submit.click();
  const dialog = page.getByRole("dialog", { name: m.confirmTitle });
  await expect(dialog).toBeVisible();
  await dialog.getByRole("button", { name: m.confirm }).click();
  await expect(card.getByText(m.passwordInvalid)).toBeVisible();
  expect((await page.request.get("/api/me")).status()).toBe(200);

  // Cancelled: nothing happens.
  await password.fill(customer.password);
  await submit.click();
  await expect(dialog).toBeVisible();
  await expectAccessible(page, "profile, delete my account, confirm, 1440 px");
  await dialog.getByRole("button", { name: m.cancel }).click();
  await expect(dialog).toBeHidden();
  expect((await page.request.get("/api/me")).status()).toBe(200);

  await page.setViewportSize({ width: 390, height: 844 });
  await expect(card).toBeVisible();
  await expectAccessible(page, "profile, delete my account, 390 px");

  // Confirmed: signed out, on the home page, told so.
  await submit.click();
  await expect(dialog).toBeVisible();
  await dialog.getByRole("button", { name: m.confirm }).click();
  await expect(page.getByText(m.done)).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
  // The navigation offers to sign in again (at 390 px it sits in the closed menu).
  await expect(page.locator('a[href="/login"]').first()).toBeAttached();
  await expect(page.getByText(commonMessages.nav.signOut)).toHaveCount(0);
  expect((await page.request.get("/api/me")).status()).toBe(401);
  const session = await page.request.get("/api/session");
  expect((await session.json()).user).toBeNull();

  // The sign-in is refused.
  const signIn = await page.request.post("/api/auth/sign-in/email", {
    headers: origin,
    data: { email: customer.email, password: customer.password },
  });
  expect(signIn.status()).toBe(401);

  // The unpaid order is gone and its units back; the paid one stays in Manage Orders, as invoiced.
  expect(await stockOf(page, product.id)).toBe(488);
  const listed = await adminApi.get(`/api/orders?${new URLSearchParams({ search: customer.email })}`);
  expect(listed.status()).toBe(200);
  const items = ((await listed.json()) as OrderPage).items;
  expect(items.map((o) => o.id)).toEqual([paid.id]);
  expect(items[0]).toMatchObject({ email: customer.email, name: customer.name });
  expect(items.some((o) => o.id === pending.id)).toBe(false);
});
