import { readFile } from "node:fs/promises";
import type { Locator, Page } from "@playwright/test";
import { pdfText } from "../src/server/test/pdf.js";
import type { Product } from "../src/shared/catalog.js";
import { orderNumber } from "../src/shared/format.js";
import { invoicePath } from "../src/shared/invoices.js";
import { invoiceMessages } from "../src/shared/messages/invoices.js";
import { orderMessages } from "../src/shared/messages/orders.js";
import { paymentMessages } from "../src/shared/messages/payments.js";
import { pricingMessages } from "../src/shared/messages/pricing.js";
import { formatCents } from "../src/shared/pricing.js";
import { expectAccessible } from "./support/axe.js";
import { uniqueName } from "./support/data.js";
import { expect, test } from "./support/fixtures.js";
import { payWithCard } from "./support/payment.js";

/**
 * Issue 18's invoice as the customer gets it: booked and paid with the sandbox card, then
 * downloaded from My Orders (the table, and the card of a narrow screen) and read with pdftotext;
 * another customer asking for it is told it does not exist.
 */

const table = orderMessages.table;
const PRICE = 12;
const UNITS = 10;

/** Clicks the invoice link and reads the file the browser saved: its name and its text. */
async function downloadInvoice(page: Page, link: Locator): Promise<{ filename: string; text: string }> {
  const saved = page.waitForEvent("download");
  await link.click();
  const download = await saved;
  const pdf = await readFile(await download.path());
  expect(pdf.subarray(0, 5).toString()).toBe("%PDF-");
  // In reading order: a long product name wraps in its cell, and its lines follow each other.
  return {
    filename: download.suggestedFilename(),
    text: (await pdfText(pdf, { reading: true })).replace(/\s+/g, " "),
  };
}

test("a customer pays, downloads the invoice from My Orders, and another customer gets 404 for it", async ({
  page,
  browser,
  customer,
  products,
  orders,
  users,
}) => {
  const product: Product = await products.add({
    name: uniqueName("Invoice Keyboard"),
    image: "/media/products/pulse-60-compact-keyboard.svg",
    price: PRICE,
    quantity: 5_000,
    description: "A keyboard stocked for the invoice journey.",
    category: "keyboards",
  });
  const order = await orders.place(page.request, product.id, UNITS);

  // Unpaid: no invoice yet.
  await page.goto("/dashboard");
  const row = page.getByRole("row").filter({ hasText: product.name });
  await expect(row.getByRole("link", { name: table.payFor(product.name) })).toBeVisible();
  // The link is named by the order's own number, as its mails and the invoice name it.
  const ordered = orderNumber(order.id);
  const invoiceLink = row.getByRole("link", { name: table.invoiceFor(ordered, product.name), exact: true });
  await expect(invoiceLink).toHaveCount(0);

  await row.getByRole("link", { name: table.payFor(product.name) }).click();
  await payWithCard(page, "4242 4242 4242 4242");
  await expect(page.getByText(paymentMessages.success)).toBeVisible();

  // Paid: the table's link downloads invoice-GH-<number>.pdf with the number, product and total.
  await page.goto("/dashboard");
  await expect(invoiceLink).toBeVisible();
  await expect(invoiceLink).toHaveAttribute("href", invoicePath(order.id));
  await expectAccessible(page, "My Orders with an invoice to download");
  const { filename, text } = await downloadInvoice(page, invoiceLink);
  const number = /^invoice-(GH-\d{6})\.pdf$/.exec(filename)?.[1];
  expect(number, filename).toBeDefined();
  expect(text).toContain(`${invoiceMessages.number}: ${number}`);
  expect(text).toContain(product.name);
  expect(text).toContain(customer.name);
  expect(text).toContain(`${pricingMessages.amounts.gross}: ${formatCents(PRICE * UNITS * 100)}`);

  // A narrow screen shows the order as a card, with the same link.
  await page.setViewportSize({ width: 390, height: 844 });
  const card = page.getByRole("article").filter({ hasText: product.name });
  const cardLink = card.getByRole("link", { name: table.invoiceFor(ordered, product.name), exact: true });
  await expect(cardLink).toBeVisible();
  expect((await downloadInvoice(page, cardLink)).filename).toBe(filename);
  await expectAccessible(page, "My Orders as cards with an invoice to download");

  // Another customer is told the order does not exist, as the order's own route does.
  const otherContext = await browser.newContext();
  try {
    const other = await otherContext.newPage();
    await users.signUp(other.request, { tag: "other" });
    const answer = await other.request.get(invoicePath(order.id));
    expect(answer.status()).toBe(404);
    expect(answer.headers()["content-type"]).toMatch(/^application\/problem\+json/);
    expect(await answer.json()).toMatchObject({ status: 404, detail: orderMessages.notFound });
  } finally {
    await otherContext.close();
  }
});
