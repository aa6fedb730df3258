import path from "node:path";
import type { Locator } from "@playwright/test";
import pg from "pg";
import { embeddedClientConfig } from "../src/server/db/embedded.js";
import { paymentMessages } from "../src/shared/messages/payments.js";
import { pricingMessages } from "../src/shared/messages/pricing.js";
import type { Order } from "../src/shared/orders.js";
import { expectAccessible } from "./support/axe.js";
import { origin, signInAsAdmin, uniqueName, uniqueTag } from "./support/data.js";
import { E2E } from "./support/env.js";
import { expect, test } from "./support/fixtures.js";
import { payWithCard } from "./support/payment.js";

/**
 * An order's amounts where the customer and the admin see them (issue 33, item 3): My Orders'
 * total is the gross with its breakdown, the payment page charges the gross, Manage Orders shows it.
 */

const a = pricingMessages.amounts;

/** Runs `text` with `values` in the e2e shop's database. */
async function inShopDb(text: string, values: unknown[]) {
  const client = new pg.Client(embeddedClientConfig(path.join(E2E.dataDir, "postgres"), E2E.pgPort));
  await client.connect();
  try {
    return await client.query(text, values);
  } finally {
    await client.end();
  }
}

/**
 * The breakdown of the order booked below, shown in `scope`: $370.00 less 10%, then 8.25% tax on
 * the rest, each label beside its amount (a list's terms and definitions pair up in their order,
 * those of a list inside a definition included). Hidden ones (a closed disclosure) are not read.
 */
async function expectBreakdown(scope: Locator, code: string) {
  await expect(scope.getByRole("term").filter({ hasText: a.subtotal })).toBeVisible();
  const terms = await scope.getByRole("term").allInnerTexts();
  const definitions = await scope.getByRole("definition").allInnerTexts();
  const pairs = terms.map((term, i) => [term.trim(), definitions[i]?.trim()]);
  for (const line of [
    [a.subtotal, "$370.00"],
    [a.discountCode(code), "-$37.00"],
    [a.net, "$333.00"],
    [a.tax("8.25%"), "$27.47"],
    [a.gross, "$360.47"],
  ])
    expect(pairs).toContainEqual(line);
}

test("a discounted, taxed order: My Orders, the payment page and Manage Orders show and charge the gross", async ({
  page,
  browser,
  products,
  customer,
}) => {
  const product = await products.add({
    name: uniqueName("Amounts Keyboard"),
    image: "/media/products/drift-ambidextrous-gaming-mouse.svg",
    price: 37,
    quantity: 5_000,
    description: "A keyboard booked with a code and tax.",
    category: "keyboards",
  });
  // A code of this journey's own, for its product only, so no other journey books with it.
  const code = uniqueTag("AMOUNTS").toUpperCase();
  await inShopDb(
    `insert into discount_code (code, kind, value, product_ids) values ($1, 'percent', 10, $2)`,
    [code, [product.id]],
  );
  const booked = await page.request.post("/api/orders", {
    headers: origin,
    data: {
      productId: product.id,
      quantity: 10,
      address: "9 Dock Street, Austin",
      phone: "5550142",
      discountCode: code.toLowerCase(),
      companyName: "Ωmega Parts GmbH",
      companyTaxId: "DE 123/456.789",
    },
  });
  expect(booked.status()).toBe(201);
  const order = (await booked.json()) as Order;
  expect(order).toMatchObject({
    discountCode: code,
    discountCents: 3_700,
    netCents: 33_300,
    grossCents: 33_300,
  });
  // The shop's tax rate is one setting for every journey running beside this one: the tax goes on
  // this order's row alone, as booking at 8.25% would have stored it (net + tax = gross).
  const taxed = await inShopDb(
    `update "order" set tax_rate_bp = 825, tax_cents = 2747, gross_cents = net_cents + 2747 where id = $1`,
    [order.id],
  );
  expect(taxed.rowCount).toBe(1);

  // My Orders, as a table: the total is the gross, with cents; its breakdown behind a disclosure.
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto("/dashboard");
  const row = page.getByRole("row").filter({ hasText: product.name });
  await expect(row.getByRole("cell").filter({ hasText: "$360.47" })).toHaveCount(1);
  await expect(row.getByRole("definition")).toHaveCount(0);
  await row.getByText(a.details, { exact: true }).click();
  await expectBreakdown(row.locator("details"), code);
  await expectAccessible(page, "my orders with a breakdown");

  // At 390 px, as a card: the same total and breakdown.
  await page.setViewportSize({ width: 390, height: 844 });
  const orderCard = page.getByRole("article").filter({ hasText: product.name });
  await expect(orderCard.getByText("$360.47", { exact: true }).first()).toBeVisible();
  await expect(orderCard.getByRole("term").filter({ hasText: a.subtotal })).toHaveCount(0);
  await orderCard.getByText(a.details, { exact: true }).click();
  await expectBreakdown(orderCard.locator("details"), code);
  await expectAccessible(page, "my orders with a breakdown, 390 px");

  // The payment page: the breakdown, the company, and Pay the gross.
  await page.goto(`/dashboard/payment/${order.id}`);
  const summary = page.getByRole("region", { name: paymentMessages.page.detailTitle });
  await expectBreakdown(summary, code);
  await expect(summary).toContainText("Ωmega Parts GmbH, Tax ID: DE 123/456.789");
  await expect(page.getByRole("button", { name: "Pay $360.47" })).toBeVisible();
  await expectAccessible(page, "payment page with a breakdown, 390 px");
  await page.setViewportSize({ width: 1440, height: 900 });
  await expectAccessible(page, "payment page with a breakdown");
  await payWithCard(page, "4242 4242 4242 4242");
  await expect(page.getByText(paymentMessages.success)).toBeVisible();
  const paid = (await (await page.request.get(`/api/orders/${order.id}`)).json()) as Order;
  expect(paid).toMatchObject({ status: "paid", grossCents: 36_047 });

  // Manage Orders: the admin sees the gross too.
  const context = await browser.newContext();
  try {
    const admin = await context.newPage();
    await signInAsAdmin(admin.request);
    await admin.setViewportSize({ width: 1440, height: 900 });
    await admin.goto(`/dashboard/manageOrders?search=${encodeURIComponent(customer.email)}`);
    const adminRow = admin.getByRole("row").filter({ hasText: product.name });
    await expect(adminRow.getByRole("cell").filter({ hasText: "$360.47" })).toHaveCount(1);
    await adminRow.getByText(a.details, { exact: true }).click();
    await expectBreakdown(adminRow.locator("details"), code);
    await expectAccessible(admin, "manage orders with a breakdown");
  } finally {
    await context.close();
  }
});
