import { trackingUrl } from "../src/shared/carriers.js";
import { mailMessages } from "../src/shared/messages/mail.js";
import { mailPreferenceMessages } from "../src/shared/messages/mail-preferences.js";
import { expectAccessible } from "./support/axe.js";
import { origin, uniqueName } from "./support/data.js";
import { expect, test } from "./support/fixtures.js";
import { headersOf, mailText, waitForRawMail } from "./support/mail.js";

const m = mailPreferenceMessages;
const IMAGE = "/media/products/gale-120-high-static-pressure-fan.svg";

test("a customer turns reminder mails off in Profile, and they stay off", async ({ page, customer: _ }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto("/dashboard/myProfile");
  const card = page.getByRole("region", { name: m.card.heading, exact: true });
  await expect(card).toBeVisible();
  await expect(card.getByText(m.card.lead)).toBeVisible();
  const reminders = card.getByLabel(m.card.reminders);
  await expect(reminders).toBeChecked();
  await expectAccessible(page, "profile, mails, 1440 px");

  await reminders.uncheck();
  await card.getByRole("button", { name: m.card.save }).click();
  await expect(card.getByRole("status").filter({ hasText: m.card.saved })).toContainText(m.card.off);

  await page.reload();
  await expect(card.getByLabel(m.card.reminders)).not.toBeChecked();
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(card).toBeVisible();
  await expectAccessible(page, "profile, mails, 390 px");
});

test("a back-in-stock mail carries a one-click unsubscribe; its page asks, then turns reminder mails off", async ({
  page,
  customer,
  products,
  adminApi,
}) => {
  const product = await products.add({
    name: uniqueName("Quiet fan"),
    description: "A fan that sold out.",
    image: IMAGE,
    price: 19,
    quantity: 3,
    category: "cooling-fans",
  });
  const asked = await page.request.post("/api/stock-notices", {
    headers: origin,
    data: { productId: product.id },
  });
  expect(asked.status()).toBe(201);
  const restocked = await adminApi.patch(`/api/products/${product.id}`, {
    headers: origin,
    data: { quantity: 40 },
  });
  expect(restocked.status()).toBe(200);
  const raw = await waitForRawMail(
    customer.email,
    (text) => mailText(text).includes(mailMessages.backInStock.subject(product.name)),
    60_000,
  );
  // RFC 8058's two headers, as the mail server got them.
  const headers = headersOf(raw);
  expect(headers).toMatch(/^List-Unsubscribe: <https?:\/\/[^>\s]+\/api\/mail\/unsubscribe\?token=[^>\s]+>/m);
  expect(headers).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click/m);
  // The footer's link: the page at the shop's root (not the API address of the header).
  const link = /https?:\/\/[^\s"<>/]+\/unsubscribe\?token=[^\s"<>]+/
    .exec(mailText(raw))?.[0]
    ?.replaceAll("&amp;", "&");
  if (!link) throw new Error("no reminder unsubscribe link in the mail");

  // Opened in a browser: it asks first, and changes nothing until asked.
  await page.setViewportSize({ width: 390, height: 844 });
  const url = new URL(link);
  await page.goto(url.pathname + url.search);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(m.unsubscribe.title);
  await expectAccessible(page, "unsubscribe reminders, 390 px");
  expect((await (await page.request.get("/api/me/mail-preferences")).json()).reminderMails).toBe(true);
  await page.setViewportSize({ width: 1440, height: 900 });
  await expectAccessible(page, "unsubscribe reminders, 1440 px");
  await page.getByRole("button", { name: m.unsubscribe.confirm }).click();
  await expect(page.getByRole("status")).toHaveText(m.unsubscribe.done);
  await expectAccessible(page, "unsubscribe reminders, done, 1440 px");

  await page.getByRole("link", { name: m.unsubscribe.profile }).click();
  await expect(
    page.getByRole("region", { name: m.card.heading, exact: true }).getByLabel(m.card.reminders),
  ).not.toBeChecked();
});

test("My Orders links a shipped order's tracking number to its carrier's page", async ({
  page,
  customer,
  products,
  orders,
  adminApi,
}) => {
  const product = await products.add({
    name: uniqueName("Tracked fan"),
    description: "A fan on its way.",
    image: IMAGE,
    price: 19,
    quantity: 40,
    category: "cooling-fans",
  });
  const order = await orders.place(page.request, product.id);
  await orders.pay(page.request, order, customer);
  const shipped = await adminApi.post(`/api/orders/${order.id}/ship`, {
    headers: origin,
    data: { carrier: "UPS", trackingNumber: "1Z999AA10123456784" },
  });
  expect(shipped.status()).toBe(200);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto("/dashboard");
  const link = page.getByRole("link", { name: /1Z999AA10123456784/ }).first();
  await expect(link).toHaveAttribute("href", trackingUrl("UPS", "1Z999AA10123456784") ?? "");
  await expect(link).toHaveAttribute("rel", /noopener/);
  await expect(link).toHaveAttribute("target", "_blank");
});
