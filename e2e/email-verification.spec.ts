import type { Page } from "@playwright/test";
import type { ProductList } from "../src/shared/catalog.js";
import { accountMessages } from "../src/shared/messages/accounts.js";
import { orderMessages } from "../src/shared/messages/orders.js";
import { expectAccessible } from "./support/axe.js";
import { uniqueEmail, verificationLinkIn } from "./support/data.js";
import { E2E } from "./support/env.js";
import { expect, test } from "./support/fixtures.js";
import { waitForMail } from "./support/mail.js";

const form = accountMessages.form;
const verify = orderMessages.verify;

/** A product of the demo catalog no other journey books (the 9th most expensive). */
async function productId(page: Page): Promise<string> {
  const response = await page.request.get("/api/products?sort=price-desc&pageSize=12");
  const item = ((await response.json()) as ProductList).items[8];
  if (!item) throw new Error("The demo catalog has too few products");
  return item.id;
}

/**
 * Booking needs a verified email (docs/product.md): a visitor who signs up from a product page is
 * told on it, and on My Orders, to open the link mailed to them (or to ask for a new one); the
 * link, read from the local mail server, brings them back to the product page, where they book.
 */
test("sign up from a product page, verify through the mailed link, come back to the page and book", async ({
  page,
  users,
}) => {
  const email = uniqueEmail("verify");
  users.track(email);
  const id = await productId(page);
  const productPath = `/tool/${id}`;
  await page.setViewportSize({ width: 1440, height: 900 });

  // The product page asks a visitor to sign in; from there, to create an account.
  await page.goto(productPath);
  await expect(page).toHaveURL(/\/login\?redirect=/);
  await page.getByRole("link", { name: accountMessages.pages.createAccount }).click();
  await expect(page).toHaveURL(/\/registration\?redirect=/);
  await page.getByLabel(form.name, { exact: true }).fill("Vera Verify");
  await page.getByLabel(form.email, { exact: true }).fill(email);
  await page.getByLabel(form.password, { exact: true }).fill("Passw0rd!");
  await page.getByLabel(form.phone, { exact: true }).fill("+1 555 0177");
  await page.getByRole("button", { name: form.signUp }).click();
  await expect(page).toHaveURL(`${E2E.baseURL}/`);

  // Signed in but not verified: the product page says what to do instead of offering the form.
  await page.goto(productPath);
  const notice = page.getByRole("region", { name: verify.title });
  await expect(notice).toBeVisible();
  await expect(notice.getByText(verify.text(email))).toBeVisible();
  await expect(page.getByRole("button", { name: orderMessages.form.book })).toHaveCount(0);
  await expectAccessible(page, "product page, unverified, 1440 px");

  // My Orders says it too.
  await page.goto("/dashboard");
  await expect(page.getByRole("region", { name: verify.title })).toBeVisible();

  // On a phone, the customer asks for the link again from the product page.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(productPath);
  await page.getByRole("button", { name: verify.resend }).click();
  await expect(page.getByRole("status").filter({ hasText: verify.sent(email) })).toBeVisible();
  await expectAccessible(page, "product page, link resent, 390 px");

  // The link in the mail brings them back to the product page, verified: the form is there.
  const mail = await waitForMail(email, 60_000, (text) => verificationLinkIn(text) !== undefined);
  const link = verificationLinkIn(mail) ?? "";
  expect(new URL(link).searchParams.get("callbackURL")).toBe(productPath);
  await page.goto(link);
  await expect(page).toHaveURL(`${E2E.baseURL}${productPath}`);
  await expect(page.getByRole("region", { name: verify.title })).toHaveCount(0);
  await expect(page.getByLabel(orderMessages.form.email, { exact: true })).toHaveValue(email);
  await expectAccessible(page, "product page, verified, 390 px");

  await page.setViewportSize({ width: 1440, height: 900 });
  await page.getByLabel(orderMessages.form.quantity, { exact: true }).fill("10");
  await page.getByLabel(orderMessages.form.address, { exact: true }).fill("7 Circuit Lane, Austin");
  await page.getByLabel(orderMessages.form.phone, { exact: true }).fill("5550142");
  await page.getByRole("button", { name: orderMessages.form.book }).click();
  await expect(page.getByText(orderMessages.booked)).toBeVisible();
  await expectAccessible(page, "booked, 1440 px");
});
