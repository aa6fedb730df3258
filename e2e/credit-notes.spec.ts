import { readFile } from "node:fs/promises";
import type { Locator, Page } from "@playwright/test";
import { pdfText } from "../src/server/test/pdf.js";
import type { Product } from "../src/shared/catalog.js";
import { creditNoteNumber, creditNotePath } from "../src/shared/credit-notes.js";
import { orderNumber } from "../src/shared/format.js";
import { adminMessages } from "../src/shared/messages/admin.js";
import { creditNoteMessages } from "../src/shared/messages/credit-notes.js";
import { orderMessages } from "../src/shared/messages/orders.js";
import type { Order } from "../src/shared/orders.js";
import { formatCents } from "../src/shared/pricing.js";
import { expectAccessible } from "./support/axe.js";
import { signInAsAdmin, uniqueName } from "./support/data.js";
import { expect, test } from "./support/fixtures.js";

/**
 * Issue 33's credit note as both sides get it: a customer's paid order refunded by the admin from
 * Manage Orders, whose row then offers the credit note; the customer downloads it from My Orders
 * (the table, and the card of a narrow screen) and reads it with pdftotext; another customer
 * asking for it is told it does not exist.
 */

const table = orderMessages.table;
const o = adminMessages.orders;
const refund = orderMessages.refund;
const PRICE = 14;
const UNITS = 10;

/** Clicks a download link and reads the file the browser saved: its name and its text. */
async function download(page: Page, link: Locator): Promise<{ filename: string; text: string }> {
  const saved = page.waitForEvent("download");
  await link.click();
  const file = await saved;
  const pdf = await readFile(await file.path());
  expect(pdf.subarray(0, 5).toString()).toBe("%PDF-");
  return {
    filename: file.suggestedFilename(),
    text: (await pdfText(pdf, { reading: true })).replace(/\s+/g, " "),
  };
}

test("the admin refunds a paid order and the customer downloads its credit note from My Orders", async ({
  page,
  browser,
  customer,
  products,
  orders,
  users,
}) => {
  const product: Product = await products.add({
    name: uniqueName("Credit Note Keyboard"),
    image: "/media/products/pulse-60-compact-keyboard.svg",
    price: PRICE,
    quantity: 5_000,
    description: "A keyboard stocked for the credit note journey.",
    category: "keyboards",
  });
  const order = await orders.place(page.request, product.id, UNITS);
  await orders.pay(page.request, order, customer);

  // Paid: an invoice, no credit note yet.
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto("/dashboard");
  const row = page.getByRole("row").filter({ hasText: product.name });
  // The links are named by the order's own number (issue 34).
  const ordered = orderNumber(order.id);
  await expect(
    row.getByRole("link", { name: table.invoiceFor(ordered, product.name), exact: true }),
  ).toBeVisible();
  const creditLink = row.getByRole("link", { name: table.creditNoteFor(ordered, product.name), exact: true });
  await expect(creditLink).toHaveCount(0);

  // The admin refunds it from Manage Orders, by keyboard; the row then offers its credit note.
  const admin = await (await browser.newContext()).newPage();
  try {
    await signInAsAdmin(admin.request);
    await admin.setViewportSize({ width: 1440, height: 900 });
    await admin.goto(`/dashboard/manageOrders?search=${encodeURIComponent(customer.email)}`);
    const adminRow = admin.getByRole("row").filter({ hasText: product.name });
    const adminLink = adminRow.getByRole("link", {
      name: o.creditNoteFor(product.name, customer.name),
      exact: true,
    });
    await expect(adminLink).toHaveCount(0);
    await adminRow.getByRole("button", { name: refund.actionFor(product.name, customer.name) }).click();
    const dialog = admin.getByRole("dialog", { name: refund.title });
    await dialog.getByRole("button", { name: refund.confirmButton, exact: true }).focus();
    await admin.keyboard.press("Enter");
    await expect(admin.getByText(refund.done)).toBeVisible();
    await expect(adminLink).toBeVisible();
    await expect(adminLink).toHaveAttribute("href", creditNotePath(order.id));
    // Reached by keyboard: focused, it is the link itself.
    await adminLink.focus();
    await expect(adminLink).toBeFocused();
    await expectAccessible(admin, "Manage Orders with a credit note to download");
    const forAdmin = await download(admin, adminLink);
    expect(forAdmin.text).toContain(creditNoteMessages.title);
    await admin.setViewportSize({ width: 390, height: 844 });
    const adminCard = admin.getByRole("article").filter({ hasText: product.name });
    await expect(
      adminCard.getByRole("link", { name: o.creditNoteFor(product.name, customer.name), exact: true }),
    ).toBeVisible();
    await expectAccessible(admin, "Manage Orders as cards with a credit note to download");
  } finally {
    await admin.context().close();
  }

  // The customer: the table's link downloads credit-note-CN-<number>.pdf, which credits the invoice.
  const refunded = (await (await page.request.get(`/api/orders/${order.id}`)).json()) as Order;
  expect(refunded.status).toBe("refunded");
  expect(refunded.creditNoteNumber).toEqual(expect.any(Number));
  const number = creditNoteNumber(refunded.creditNoteNumber ?? 0);
  await page.goto("/dashboard");
  await expect(creditLink).toBeVisible();
  await expect(creditLink).toHaveAttribute("href", creditNotePath(order.id));
  await expect(
    row.getByRole("link", { name: table.invoiceFor(ordered, product.name), exact: true }),
  ).toBeVisible();
  await expectAccessible(page, "My Orders with a credit note to download");
  const { filename, text } = await download(page, creditLink);
  expect(filename).toBe(`credit-note-${number}.pdf`);
  expect(text).toContain(creditNoteMessages.title);
  expect(text).toContain(`${creditNoteMessages.number}: ${number}`);
  expect(text).toMatch(new RegExp(`${creditNoteMessages.credits}: GH-\\d{6}`));
  expect(text).toContain(product.name);
  expect(text).toContain(customer.name);
  expect(text).toContain(`${creditNoteMessages.gross}: ${formatCents(-refunded.grossCents)}`);

  // A narrow screen shows the order as a card, with the same link.
  await page.setViewportSize({ width: 390, height: 844 });
  const card = page.getByRole("article").filter({ hasText: product.name });
  const cardLink = card.getByRole("link", { name: table.creditNoteFor(ordered, product.name), exact: true });
  await expect(cardLink).toBeVisible();
  expect((await download(page, cardLink)).filename).toBe(filename);
  await expectAccessible(page, "My Orders as cards with a credit note to download");

  // Another customer is told the order does not exist.
  const otherContext = await browser.newContext();
  try {
    const other = await otherContext.newPage();
    await users.signUp(other.request, { tag: "other" });
    const answer = await other.request.get(creditNotePath(order.id));
    expect(answer.status()).toBe(404);
    expect(await answer.json()).toMatchObject({ status: 404, detail: orderMessages.notFound });
  } finally {
    await otherContext.close();
  }
});
