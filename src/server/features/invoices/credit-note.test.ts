import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { creditNoteNumber, creditNotePath } from "../../../shared/credit-notes.js";
import { orderNumber } from "../../../shared/format.js";
import { invoiceNumber } from "../../../shared/invoices.js";
import { creditNoteMessages } from "../../../shared/messages/credit-notes.js";
import { mailMessages } from "../../../shared/messages/mail.js";
import { orderMessages } from "../../../shared/messages/orders.js";
import type { Order, OrderPage } from "../../../shared/orders.js";
import { creditNotes, invoices, orders, shopSettings } from "../../db/schema/index.js";
import {
  download,
  expectAnsweredAsMissing,
  expectDocumentedAsPdf,
  PAPER_SELLER,
  pdfLines,
  setUpPaperShop,
  utcDay,
} from "../../test/papers.js";
import { orderRow, paidOrder, placeOrder, post } from "../../test/payments.js";
import { until } from "../../test/until.js";
import { signUp, type TestUser } from "../../test/users.js";
import { creditNotePdf } from "./index.js";

const { ctx, mailer, alice, bob, admin } = setUpPaperShop("Alice Credit");
/** The shop's own tax ID as its settings hold it: printed instead of SELLER_TAX_ID. */
const SHOP_TAX_ID = "DE 811 907 980";
// 8.25% on top of the prices, so every order here has net, tax and gross of its own.
beforeAll(() =>
  ctx.database.db.update(shopSettings).set({ taxRateBp: 825, pricesIncludeTax: false, taxId: SHOP_TAX_ID }),
);

/** A paid order refunded by an admin: the refund's answer. */
async function refundedOrder(user: TestUser, price = 37): Promise<Order> {
  const order = await paidOrder(ctx, user, price);
  const refunded = await post(ctx, admin, `/api/orders/${order.id}/refund`);
  expect(refunded.statusCode, refunded.body).toBe(200);
  return refunded.json();
}

const creditNoteOf = (user: TestUser | null, orderId: string) => download(ctx, user, creditNotePath(orderId));

async function noteOf(orderId: string) {
  const [row] = await ctx.database.db.select().from(creditNotes).where(eq(creditNotes.orderId, orderId));
  if (!row) throw new Error(`order ${orderId} has no credit note`);
  return row;
}

describe("a refund's credit note", () => {
  it("is issued at the refund for the order's gross, crediting its invoice, and the order answers its number", async () => {
    const refunded = await refundedOrder(alice, 41);
    const row = await orderRow(ctx, refunded.id);
    const note = await noteOf(refunded.id);
    const [invoice] = await ctx.database.db.select().from(invoices).where(eq(invoices.orderId, refunded.id));
    expect(note).toEqual({
      number: expect.any(Number),
      orderId: refunded.id,
      invoiceNumber: invoice?.number,
      amountCents: row?.grossCents,
      issuedAt: row?.refundedAt,
    });
    // 410 dollars and 8.25% on top: 410.00 + 33.83 = 443.83.
    expect([row?.netCents, row?.taxCents, row?.grossCents]).toEqual([41_000, 3_383, 44_383]);
    // Every answer of the order says it: the refund's, the order's own, My Orders and Manage Orders.
    expect(refunded.creditNoteNumber).toBe(note.number);
    const one = await ctx.app.inject({
      url: `/api/orders/${refunded.id}`,
      headers: { cookie: alice.cookie },
    });
    expect(one.json().creditNoteNumber).toBe(note.number);
    const mine = await ctx.app.inject({ url: "/api/orders/mine", headers: { cookie: alice.cookie } });
    expect(mine.statusCode, mine.body).toBe(200);
    const listed = (mine.json() as OrderPage).items.find((o) => o.id === refunded.id);
    expect(listed?.creditNoteNumber).toBe(note.number);
    const all = await ctx.app.inject({ url: "/api/orders", headers: { cookie: admin.cookie } });
    expect((all.json() as OrderPage).items.find((o) => o.id === refunded.id)?.creditNoteNumber).toBe(
      note.number,
    );
    // A paid order has none; refunding it again (a double click) issues no second one.
    expect((await paidOrder(ctx, alice)).creditNoteNumber).toBeNull();
    const again = await post(ctx, admin, `/api/orders/${refunded.id}/refund`);
    expect(again.json().creditNoteNumber).toBe(note.number);
    expect(
      await ctx.database.db.select().from(creditNotes).where(eq(creditNotes.orderId, refunded.id)),
    ).toHaveLength(1);
  });

  it("gives the owner a PDF with its number, the invoice it credits, the parties and the amounts as negative", async () => {
    const refunded = await refundedOrder(alice, 41);
    await ctx.database.db
      .update(orders)
      .set({ companyName: "Ωmega Gaming GmbH", companyTaxId: "ATU12345678" })
      .where(eq(orders.id, refunded.id));
    const res = await creditNoteOf(alice, refunded.id);
    expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
    const note = await noteOf(refunded.id);
    const number = creditNoteNumber(note.number);
    expect(number).toMatch(/^CN-\d{6}$/);
    expect(res.headers["content-type"]).toBe("application/pdf");
    expect(res.headers["content-disposition"]).toBe(`attachment; filename="credit-note-${number}.pdf"`);
    expect(res.headers["cache-control"]).toBe("private, no-store");

    const text = await pdfLines(res.rawPayload);
    const joined = text.join("\n");
    expect(text[0]).toBe(creditNoteMessages.title);
    expect(text).toContain(`${creditNoteMessages.number}: ${number}`);
    expect(text).toContain(`${creditNoteMessages.issued}: ${utcDay.format(note.issuedAt)}`);
    expect(text).toContain(`${creditNoteMessages.credits}: ${invoiceNumber(note.invoiceNumber)}`);
    expect(text).toContain(`${orderMessages.number}: ${orderNumber(refunded.id)}`);
    const parties = text.slice(
      text.indexOf(creditNoteMessages.seller),
      text.indexOf(creditNoteMessages.buyer) + 7,
    );
    expect(parties).toEqual([
      creditNoteMessages.seller,
      "Gearhouse",
      PAPER_SELLER.SELLER_ADDRESS,
      "no-reply@gearhouse.local",
      creditNoteMessages.taxId(SHOP_TAX_ID),
      creditNoteMessages.buyer,
      "Alice Credit",
      creditNoteMessages.company("Ωmega Gaming GmbH"),
      creditNoteMessages.buyerTaxId("ATU12345678"),
      alice.email,
      "1 Loop Road, Austin",
      creditNoteMessages.phone("5550123"),
    ]);
    expect(joined).toContain(`${refunded.productName} $41 10 -$410.00`);
    expect(text).toContain(`${creditNoteMessages.net}: -$410.00`);
    expect(text).toContain(`${creditNoteMessages.tax("8.25%", false)}: -$33.83`);
    expect(text).toContain(`${creditNoteMessages.gross}: -$443.83`);
    expect(joined).toContain(`Order ${refunded.id}.`);
  });

  it("is the same file for the admin, for the refund mail, and is attached to the refund mail", async () => {
    const refunded = await refundedOrder(alice);
    const owner = await creditNoteOf(alice, refunded.id);
    const byAdmin = await creditNoteOf(admin, refunded.id);
    expect(byAdmin.statusCode).toBe(200);
    expect(byAdmin.rawPayload.equals(owner.rawPayload)).toBe(true);
    const forMail = await creditNotePdf(ctx.database.db, refunded.id, ctx.config.seller);
    expect(forMail?.pdf.equals(owner.rawPayload)).toBe(true);

    const subject = mailMessages.refunded.subject(refunded.productName, orderNumber(refunded.id));
    await until("the refund mail is sent", () =>
      mailer.sent.some((m) => m.subject === subject && m.to === alice.email),
    );
    const mail = mailer.sent.find((m) => m.subject === subject && m.to === alice.email);
    const number = creditNoteNumber((await noteOf(refunded.id)).number);
    expect(mail?.attachments).toEqual([
      { filename: `credit-note-${number}.pdf`, content: owner.rawPayload, contentType: "application/pdf" },
    ]);
    expect(mail?.text).toContain(mailMessages.refunded.creditNote(number));
  });

  it("answers another customer 404 as for an order that does not exist, a visitor 401, and 404 for an order not refunded", async () => {
    const refunded = await refundedOrder(alice);
    await expectAnsweredAsMissing(ctx, bob, creditNotePath, refunded.id);
    expect((await creditNoteOf(null, refunded.id)).statusCode).toBe(401);

    const paid = await paidOrder(ctx, alice);
    const unpaid = await placeOrder(ctx, alice);
    for (const orderId of [paid.id, unpaid.id])
      for (const user of [alice, admin]) {
        const res = await creditNoteOf(user, orderId);
        expect(res.statusCode).toBe(404);
        expect(res.json()).toMatchObject({ status: 404, detail: creditNoteMessages.notIssued });
      }
    expect(await creditNotePdf(ctx.database.db, paid.id, ctx.config.seller)).toBeUndefined();
  });

  it("prints Latin with every accent, Greek and Cyrillic as written", async () => {
    const buyer = await signUp(ctx.app, { name: "Zoë Ωmega Дмитрий" });
    const refunded = await refundedOrder(buyer);
    const text = await pdfLines((await creditNoteOf(buyer, refunded.id)).rawPayload);
    expect(text[text.indexOf(creditNoteMessages.buyer) + 1]).toBe("Zoë Ωmega Дмитрий");
  });

  it("lets one account download 60 credit notes an hour, counted apart from its invoices, then answers 429", async () => {
    const max = ctx.config.invoiceDownloadsPerHour;
    const carol = await signUp(ctx.app, { name: "Carol Counter" });
    const refunded = await refundedOrder(carol);
    for (let i = 0; i < max; i++)
      expect((await creditNoteOf(carol, refunded.id)).statusCode, `download ${i + 1}`).toBe(200);
    const refused = await creditNoteOf(carol, refunded.id);
    expect(refused.statusCode).toBe(429);
    const retryAfter = Number(refused.headers["retry-after"]);
    expect(refused.json().detail).toBe(creditNoteMessages.rateLimited(max, retryAfter));
    // The invoice of the same order still downloads; the refund mail's copy is not counted.
    const invoice = await ctx.app.inject({
      url: `/api/orders/${refunded.id}/invoice.pdf`,
      headers: { cookie: carol.cookie },
    });
    expect(invoice.statusCode).toBe(200);
    expect(await creditNotePdf(ctx.database.db, refunded.id, ctx.config.seller)).toBeDefined();
  });

  it("is documented in the OpenAPI document as a PDF", async () => {
    await expectDocumentedAsPdf(ctx, "credit-note.pdf", ["401", "404", "429"]);
  });
});
