import { asc, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { creditNoteSequence, creditNotes, invoices, orders } from "../../db/schema/index.js";
import { setUpNumberingRace } from "../../test/numbering-race.js";
import { bookOrder, confirmWithCard, type Shop } from "../../test/payments.js";
import type { TestUser } from "../../test/users.js";

// Credit note numbers come from a trigger on "order" (migration 0025) that takes them from a
// one-row sequence in the refunding transaction, as invoice numbers do (numbering.test.ts). Here
// refunds race on two instances of the shop (an admin's refund through the payment provider) and
// on bare connections, some of them rolled back, one held open until the others queue behind it;
// then the numbers must be exactly 1..N, one per refunded order. A PostgreSQL sequence (nextval)
// would leave a gap for every rollback and fail this.

const stage = setUpNumberingRace("Refunded");
const { ctx, admin, payer } = stage;

/** An order paid through the sandbox, so the provider can refund it. */
async function paidByCard(user: TestUser): Promise<string> {
  const { id } = await bookOrder(ctx, user, stage.productId());
  const transactionId = await confirmWithCard(ctx, user, id);
  const paid = await stage.post(ctx.app, user, `/api/orders/${id}/pay`, { transactionId });
  expect(paid.statusCode, paid.body).toBe(200);
  return id;
}

/** Orders recorded as paid on a bare connection (their invoices issued), to refund on bare connections. */
async function paidDirectly(count: number): Promise<string[]> {
  const ids = await Promise.all(
    Array.from({ length: count }, async (_, i) => (await bookOrder(ctx, payer(i), stage.productId())).id),
  );
  const client = await stage.connect();
  try {
    await client.query(
      `update "order" set status = 'paid', paid_at = now(), transaction_id = 'pi_direct_' || id
       where id = any($1::uuid[]) and status = 'pending'`,
      [ids],
    );
  } finally {
    await client.end();
  }
  return ids;
}

/** An admin refunds through the provider on `shop`. */
async function refund(shop: Shop, orderId: string): Promise<void> {
  const res = await stage.post(shop.app, admin, `/api/orders/${orderId}/refund`);
  expect(res.statusCode, res.body).toBe(200);
  expect(res.json().status).toBe("refunded");
}

const REFUND = `update "order" set status = 'refunded', refunded_at = now()
  where id = any($1::uuid[]) and status = 'paid'`;

/**
 * The admin's refunds, 6 on this instance (a pool of 10) and 3 on the other (a pool of 4): each
 * waits for the open refund holding one connection, and the sandbox provider's refund takes
 * another from the same pool before it (features/payments/sandbox.ts), so a refund more than a
 * pool's connections would wait for a connection instead, and be answered 503.
 */
const BY_CARD = 9;

const creditNoteRows = () => ctx.database.db.select().from(creditNotes).orderBy(asc(creditNotes.number));

describe("credit note numbers", () => {
  it("stay 1..N without a gap, one per refunded order, while refunds race on two instances and some roll back", async () => {
    const before = await creditNoteRows();
    const byCard: string[] = [];
    for (let i = 0; i < BY_CARD; i++) byCard.push(await paidByCard(payer(i)));
    const direct = await paidDirectly(17);

    // One refund takes the next number and keeps its transaction open while the others start: the
    // admin's refunds, a third through the other instance, and refunds recorded on bare
    // connections, one or three orders a statement, committed or rolled back. Once every admin's
    // refund waits behind it too, it gives its number back.
    const { held, numbered, unnumbered } = await stage.race(
      REFUND,
      direct,
      () => byCard.map((id, i) => refund(i % 3 ? ctx : stage.other(), id)),
      BY_CARD,
    );

    const after = await creditNoteRows();
    const numbers = after.map((r) => r.number);
    expect(numbers).toEqual(Array.from({ length: numbers.length }, (_, i) => i + 1));
    const [sequence] = await ctx.database.db.select().from(creditNoteSequence);
    expect(sequence?.next).toBe(numbers.length + 1);

    // One credit note per refunded order, and none for an order whose refund rolled back.
    const refunded = await ctx.database.db
      .select({ id: orders.id, number: orders.creditNoteNumber })
      .from(orders)
      .where(eq(orders.status, "refunded"));
    expect(after.map((r) => r.orderId).sort()).toEqual(refunded.map((r) => r.id).sort());
    const fresh = new Set(after.slice(before.length).map((r) => r.orderId));
    expect(fresh).toEqual(new Set([...byCard, ...numbered]));
    for (const id of unnumbered) expect(fresh.has(id), id).toBe(false);
    const unrefunded = await ctx.database.db
      .select({ number: orders.creditNoteNumber })
      .from(orders)
      .where(eq(orders.id, held));
    expect(unrefunded).toEqual([{ number: null }]);

    // Each is the order's own: its number on the order, issued at the refund, for the order's
    // gross, crediting the order's invoice.
    const mismatched = await ctx.database.db.execute<{ n: number }>(
      sql`select count(*)::int as n from ${creditNotes} c join ${orders} o on o.id = c.order_id
          join ${invoices} i on i.order_id = o.id
          where o.credit_note_number is distinct from c.number or c.issued_at <> o.refunded_at
             or c.amount_cents <> o.gross_cents or c.invoice_number <> i.number`,
    );
    expect(mismatched.rows[0]?.n).toBe(0);
  });
});
