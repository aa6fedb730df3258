import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { orderNumber } from "../../../shared/format.js";
import { invoiceNumber, invoicePath } from "../../../shared/invoices.js";
import { invoiceMessages } from "../../../shared/messages/invoices.js";
import { mailMessages } from "../../../shared/messages/mail.js";
import { orderMessages } from "../../../shared/messages/orders.js";
import { pricingMessages } from "../../../shared/messages/pricing.js";
import type { Order } from "../../../shared/orders.js";
import { loadConfig } from "../../config.js";
import { invoices, orders } from "../../db/schema/index.js";
import {
  download,
  expectAnsweredAsMissing,
  expectDocumentedAsPdf,
  PAPER_SELLER,
  pdfLines,
  setUpPaperShop,
  utcDay,
} from "../../test/papers.js";
import { confirmWithCard, orderRow, paidOrder, placeOrder, post } from "../../test/payments.js";
import { bookPriced, insertCode, setTax } from "../../test/priced-orders.js";
import { until } from "../../test/until.js";
import { signUp, type TestUser } from "../../test/users.js";
import { invoicePdf } from "./index.js";

const { ctx, mailer, alice, bob, admin } = setUpPaperShop("Alice Invoice");

const amounts = pricingMessages.amounts;

const invoiceOf = (user: TestUser | null, orderId: string) => download(ctx, user, invoicePath(orderId));

async function numberOf(orderId: string): Promise<number> {
  const [row] = await ctx.database.db.select().from(invoices).where(eq(invoices.orderId, orderId));
  if (!row) throw new Error(`order ${orderId} has no invoice`);
  return row.number;
}

describe("GET /api/orders/:id/invoice.pdf", () => {
  it("gives the owner a PDF with the number, seller, buyer, line, total, payment date and transaction id", async () => {
    const order = await paidOrder(ctx, alice, 37);
    const res = await invoiceOf(alice, order.id);
    expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
    const number = invoiceNumber(await numberOf(order.id));
    expect(number).toMatch(/^GH-\d{6}$/);
    expect(res.headers["content-type"]).toBe("application/pdf");
    expect(res.headers["content-disposition"]).toBe(`attachment; filename="invoice-${number}.pdf"`);
    expect(res.headers["cache-control"]).toBe("private, no-store");
    expect(res.rawPayload.subarray(0, 5).toString()).toBe("%PDF-");

    const text = await pdfLines(res.rawPayload);
    const row = await orderRow(ctx, order.id);
    const paidAt = row?.paidAt ?? new Date(0);
    expect(text[0]).toBe(invoiceMessages.title);
    expect(text).toContain(`${invoiceMessages.number}: ${number}`);
    // Beside the invoice's number, the order's own, as its mails and My Orders name it.
    expect(text).toContain(`${orderMessages.number}: ${orderNumber(order.id)}`);
    expect(text).toContain(`${invoiceMessages.issued}: ${utcDay.format(paidAt)}`);
    // Seller (defaults: SELLER_NAME "Gearhouse", SELLER_EMAIL from MAIL_FROM), then the buyer.
    const joined = text.join("\n");
    const parties = text.slice(text.indexOf(invoiceMessages.seller), text.indexOf(invoiceMessages.buyer) + 5);
    expect(parties).toEqual([
      invoiceMessages.seller,
      "Gearhouse",
      PAPER_SELLER.SELLER_ADDRESS,
      "no-reply@gearhouse.local",
      invoiceMessages.taxId(PAPER_SELLER.SELLER_TAX_ID),
      invoiceMessages.buyer,
      "Alice Invoice",
      alice.email,
      "1 Loop Road, Austin",
      invoiceMessages.phone("5550123"),
    ]);
    // The line: product, unit price, quantity, line total; then the amounts: no discount, no tax.
    expect(joined).toContain("Product Unit price Quantity Line total");
    expect(joined).toContain(`${order.productName} $37.00 10 $370.00`);
    const total = text.indexOf(`${amounts.net}: $370.00`);
    expect(text.slice(total, total + 3)).toEqual([
      `${amounts.net}: $370.00`,
      `${amounts.tax("0%")}: $0.00`,
      `${amounts.gross}: $370.00`,
    ]);
    expect(joined).not.toContain(amounts.subtotal);
    expect(text).toContain(`${invoiceMessages.transactionId}: ${order.transactionId}`);
    expect(joined).toMatch(
      new RegExp(`^${invoiceMessages.paidAt}: ${utcDay.format(paidAt)}, \\d\\d:\\d\\d$`, "m"),
    );
    expect(joined).toContain(`Order ${order.id}.`);
  });

  it("makes the same bytes for the same invoice, through the route and for the receipt mail", async () => {
    const order = await paidOrder(ctx, alice);
    const first = await invoiceOf(alice, order.id);
    const second = await invoiceOf(admin, order.id);
    expect(second.statusCode).toBe(200);
    expect(second.rawPayload.equals(first.rawPayload)).toBe(true);
    const forMail = await invoicePdf(ctx.database.db, order.id, ctx.config.seller);
    expect(forMail?.number).toBe(await numberOf(order.id));
    expect(forMail?.filename).toBe(`invoice-${invoiceNumber(forMail?.number ?? 0)}.pdf`);
    expect(forMail?.pdf.equals(first.rawPayload)).toBe(true);
  });

  it("is attached to the receipt mail, the same file as the download", async () => {
    const order = await paidOrder(ctx, alice);
    const subject = mailMessages.receipt.subject(order.productName, orderNumber(order.id));
    await until("the receipt is mailed", () =>
      mailer.sent.some((m) => m.subject === subject && m.to === alice.email),
    );
    const receipt = mailer.sent.find((m) => m.subject === subject && m.to === alice.email);
    const number = invoiceNumber(await numberOf(order.id));
    const download = await invoiceOf(alice, order.id);
    expect(receipt?.attachments).toEqual([
      { filename: `invoice-${number}.pdf`, content: download.rawPayload, contentType: "application/pdf" },
    ]);
    expect(receipt?.text).toContain(mailMessages.receipt.invoice(number));
  });

  it("stays as it was issued once the order is refunded: the same file, the refund on its credit note", async () => {
    const order = await paidOrder(ctx, alice, 41);
    const before = await invoiceOf(alice, order.id);
    expect(before.statusCode).toBe(200);
    const refunded = await post(ctx, admin, `/api/orders/${order.id}/refund`);
    expect(refunded.statusCode, refunded.body).toBe(200);
    expect(refunded.json().creditNoteNumber).toEqual(expect.any(Number));
    const after = await invoiceOf(alice, order.id);
    expect(after.statusCode).toBe(200);
    expect(after.rawPayload.equals(before.rawPayload)).toBe(true);
    const joined = (await pdfLines(after.rawPayload)).join(" ");
    expect(joined).not.toMatch(/refund/i);
    expect(joined).toContain(`${amounts.gross}: $410.00`);
  });

  it("prints the buyer's company, the shop's tax ID, the discount with its code, net, tax and gross as booked", async () => {
    const tax = await setTax(ctx, { taxRateBp: 825, pricesIncludeTax: false, taxId: "GH 77-1234" });
    await insertCode(ctx, "INVOICE10", 10);
    let order: Order;
    try {
      order = await bookPriced(ctx, alice, {
        price: 37,
        discountCode: "invoice10",
        companyName: "Ωmega Дмитрий Parts GmbH",
        companyTaxId: "DE 123/456.789",
      });
    } finally {
      await tax.restore();
    }
    // $370.00 less 10% is $333.00 net; 8.25% of it is $27.4725, rounded half up to $27.47.
    expect(order).toMatchObject({
      discountCents: 3_700,
      netCents: 33_300,
      taxCents: 2_747,
      grossCents: 36_047,
    });
    const transactionId = await confirmWithCard(ctx, alice, order.id);
    expect((await post(ctx, alice, `/api/orders/${order.id}/pay`, { transactionId })).statusCode).toBe(200);

    // Issued as booked: a later change of the rate changes nothing on it.
    const later = await setTax(ctx, { taxRateBp: 2_000, pricesIncludeTax: true, taxId: "GH 77-1234" });
    let text: string[];
    try {
      text = await pdfLines((await invoiceOf(alice, order.id)).rawPayload);
    } finally {
      await later.restore();
    }
    const seller = text.indexOf(invoiceMessages.seller);
    // The settings' tax ID, in place of the configured one (SELLER_TAX_ID).
    expect(text.slice(seller, seller + 5)).toContain(invoiceMessages.taxId("GH 77-1234"));
    expect(text).not.toContain(invoiceMessages.taxId(PAPER_SELLER.SELLER_TAX_ID));
    const buyer = text.indexOf(invoiceMessages.buyer);
    expect(text.slice(buyer, buyer + 5)).toEqual([
      invoiceMessages.buyer,
      "Alice Invoice",
      "Ωmega Дмитрий Parts GmbH",
      invoiceMessages.taxId("DE 123/456.789"),
      alice.email,
    ]);
    expect(text.join("\n")).toContain(`${order.productName} $37.00 10 $370.00`);
    const first = text.indexOf(`${amounts.subtotal}: $370.00`);
    expect(first).toBeGreaterThan(buyer);
    expect(text.slice(first, first + 5)).toEqual([
      `${amounts.subtotal}: $370.00`,
      `${amounts.discountCode("INVOICE10")}: -$37.00`,
      `${amounts.net}: $333.00`,
      `${amounts.tax("8.25%")}: $27.47`,
      `${amounts.gross}: $360.47`,
    ]);
  });

  it("says the tax a total includes when the prices included it", async () => {
    const tax = await setTax(ctx, { taxRateBp: 2_000, pricesIncludeTax: true });
    let order: Order;
    try {
      order = await bookPriced(ctx, alice, { price: 37 });
    } finally {
      await tax.restore();
    }
    // $370.00 includes 20%: $308.33 net (370 / 1.2, half up) and $61.67 of tax.
    expect(order).toMatchObject({ discountCents: 0, netCents: 30_833, taxCents: 6_167, grossCents: 37_000 });
    const transactionId = await confirmWithCard(ctx, alice, order.id);
    expect((await post(ctx, alice, `/api/orders/${order.id}/pay`, { transactionId })).statusCode).toBe(200);
    const text = await pdfLines((await invoiceOf(alice, order.id)).rawPayload);
    // No discount, no subtotal; the configured seller's tax ID when the settings have none.
    expect(text).toContain(invoiceMessages.taxId(PAPER_SELLER.SELLER_TAX_ID));
    expect(text.join("\n")).not.toContain(amounts.subtotal);
    const net = text.indexOf(`${amounts.net}: $308.33`);
    expect(text.slice(net, net + 3)).toEqual([
      `${amounts.net}: $308.33`,
      `${amounts.taxIncluded("20%")}: $61.67`,
      `${amounts.gross}: $370.00`,
    ]);
  });

  it("answers another customer 404 as for an order that does not exist, a visitor 401", async () => {
    const order = await paidOrder(ctx, alice);
    await expectAnsweredAsMissing(ctx, bob, invoicePath, order.id);
    const visitor = await invoiceOf(null, order.id);
    expect(visitor.statusCode).toBe(401);
    expect(visitor.headers["content-type"]).toMatch(/^application\/problem\+json/);
  });

  it("answers 404 for an order that is not paid, to its owner and an admin; the mail gets nothing", async () => {
    const order = await placeOrder(ctx, alice);
    for (const user of [alice, admin]) {
      const res = await invoiceOf(user, order.id);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ status: 404, detail: invoiceMessages.notIssued });
    }
    expect(await invoicePdf(ctx.database.db, order.id, ctx.config.seller)).toBeUndefined();
    expect(await invoicePdf(ctx.database.db, randomUUID(), ctx.config.seller)).toBeUndefined();
  });

  it("prints Latin with every accent, Greek and Cyrillic as written, in a small file", async () => {
    const buyer = await signUp(ctx.app, { name: "Zoë Ωmega Дмитрий Łukasz Żółć" });
    const order = await paidOrder(ctx, buyer);
    await ctx.database.db
      .update(orders)
      .set({ address: "Ἀθῆναι, Ελλάδα\nНевский проспект 1\nŠtefánikova 4, Bratislava" })
      .where(eq(orders.id, order.id));
    const res = await invoiceOf(buyer, order.id);
    expect(res.statusCode).toBe(200);
    const text = await pdfLines(res.rawPayload);
    const at = text.indexOf(invoiceMessages.buyer);
    expect(text[at + 1]).toBe("Zoë Ωmega Дмитрий Łukasz Żółć");
    expect(text.slice(at + 3, at + 6)).toEqual([
      "Ἀθῆναι, Ελλάδα",
      "Невский проспект 1",
      "Štefánikova 4, Bratislava",
    ]);
    // Only the glyphs used are embedded (the two faces' files are 1.4 MB together).
    expect(res.rawPayload.length).toBeLessThan(60_000);
  });

  it("prints a script the typeface does not draw as '?', never as an empty box", async () => {
    const buyer = await signUp(ctx.app, { name: "李 Ана ﷺ" });
    const order = await paidOrder(ctx, buyer);
    const text = await pdfLines((await invoiceOf(buyer, order.id)).rawPayload);
    expect(text[text.indexOf(invoiceMessages.buyer) + 1]).toMatch(/^\? Ана /);
  });

  it("prints an older row's name of several lines on the buyer's line alone, and the address's lines in its block", async () => {
    // Refused at sign-up since issue 28; a row from before may still hold one.
    const order = await paidOrder(ctx, alice);
    await ctx.database.db
      .update(orders)
      .set({
        name: "Mallory\nSeller VAT ID: DE000000000\nPAID - TOTAL DUE: $0",
        address: "1 Loop Road\r\nAustin, TX\u2028Texas\n\nUSA\nPlanet Earth",
      })
      .where(eq(orders.id, order.id));
    const res = await invoiceOf(alice, order.id);
    expect(res.statusCode).toBe(200);
    const text = await pdfLines(res.rawPayload);
    const buyer = text.indexOf(invoiceMessages.buyer);
    expect(text.slice(buyer, buyer + 7)).toEqual([
      invoiceMessages.buyer,
      "Mallory Seller VAT ID: DE000000000 PAID - TOTAL DUE: $0",
      alice.email,
      "1 Loop Road",
      "Austin, TX",
      "Texas",
      "USA, Planet Earth",
    ]);
    expect(text[buyer + 7]).toBe(invoiceMessages.phone("5550123"));
    // Nothing of the name reads as a line of its own: no line begins with what it smuggled in.
    for (const line of text) expect(line, line).not.toMatch(/^(Seller VAT ID|PAID)/);
  });

  it(`lets one account download ${60} invoices an hour, then answers 429 with Retry-After and the limit in words`, async () => {
    const max = ctx.config.invoiceDownloadsPerHour;
    expect(max).toBe(60);
    const carol = await signUp(ctx.app, { name: "Carol Counter" });
    const order = await paidOrder(ctx, carol);
    const first = await invoiceOf(carol, order.id);
    for (let i = 1; i < max; i++) {
      const res = await invoiceOf(carol, order.id);
      expect(res.statusCode, `download ${i + 1}`).toBe(200);
      // Kept after the first render: the same bytes each time.
      expect(res.rawPayload.equals(first.rawPayload)).toBe(true);
    }
    const refused = await invoiceOf(carol, order.id);
    expect(refused.statusCode).toBe(429);
    expect(refused.headers["content-type"]).toMatch(/^application\/problem\+json/);
    const retryAfter = Number(refused.headers["retry-after"]);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    expect(refused.json().detail).toBe(invoiceMessages.rateLimited(max, retryAfter));
    expect(refused.json().detail).toMatch(
      /^You can download at most 60 invoices an hour\. Please try again in \d+ minutes?\.$/,
    );
    // Per account: another customer still downloads, and the receipt mail is not counted.
    expect((await invoiceOf(bob, (await paidOrder(ctx, bob)).id)).statusCode).toBe(200);
    expect(
      (await invoicePdf(ctx.database.db, order.id, ctx.config.seller))?.pdf.equals(first.rawPayload),
    ).toBe(true);
  });

  it("is documented in the OpenAPI document as a PDF", async () => {
    await expectDocumentedAsPdf(ctx, "invoice.pdf", ["401", "404"]);
  });
});

describe("the seller from the environment", () => {
  const base = { DATA_DIR: "/tmp/gearhouse-config-test", AUTH_SECRET: "x".repeat(40) };

  it("is Gearhouse at MAIL_FROM's address unless SELLER_* say", () => {
    expect(loadConfig({ ...base, MAIL_FROM: "Shop <sales@shop.example>" }).seller).toEqual({
      name: "Gearhouse",
      address: undefined,
      email: "sales@shop.example",
      taxId: undefined,
    });
    expect(loadConfig({ ...base, MAIL_FROM: "plain@shop.example" }).seller.email).toBe("plain@shop.example");
    const set = loadConfig({
      ...base,
      SELLER_NAME: "Gearhouse Ltd",
      SELLER_ADDRESS: "1 Fan Street",
      SELLER_EMAIL: "billing@shop.example",
      SELLER_TAX_ID: "GB123456789",
    });
    expect(set.seller).toEqual({
      name: "Gearhouse Ltd",
      address: "1 Fan Street",
      email: "billing@shop.example",
      taxId: "GB123456789",
    });
    expect(() => loadConfig({ ...base, SELLER_EMAIL: "not an address" })).toThrow(/SELLER_EMAIL/);
  });
});
