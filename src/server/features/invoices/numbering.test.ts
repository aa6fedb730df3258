import { asc, isNotNull, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { invoiceSequence, invoices, orders } from "../../db/schema/index.js";
import { setUpNumberingRace } from "../../test/numbering-race.js";
import { bookOrder, confirmWithCard, type Shop } from "../../test/payments.js";
import type { TestUser } from "../../test/users.js";

// Invoice numbers come from a trigger on "order" (migration 0012) that takes them from a one-row
// sequence in the paying transaction. Here payments race on two instances of the shop and on bare
// connections, some of them rolled back, one held open until the others queue behind it; then the
// numbers must be exactly 1..N, one per paid order. A PostgreSQL sequence (nextval) would leave a
// gap for every rollback and fail this.

const stage = setUpNumberingRace("Payer");
const { ctx, payer } = stage;

const placeOrder = async (user: TestUser) => (await bookOrder(ctx, user, stage.productId())).id;

/** Pays through the sandbox on `shop`: intent and card, then /pay, which records the payment. */
async function pay(shop: Shop, user: TestUser, orderId: string): Promise<void> {
  const transactionId = await confirmWithCard(shop, user, orderId);
  const paid = await stage.post(shop.app, user, `/api/orders/${orderId}/pay`, { transactionId });
  expect(paid.statusCode, paid.body).toBe(200);
}

const PAY = `update "order" set status = 'paid', paid_at = now(), transaction_id = 'pi_direct_' || id
  where id = any($1::uuid[]) and status = 'pending'`;

async function invoiceRows() {
  return ctx.database.db.select().from(invoices).orderBy(asc(invoices.number));
}

describe("invoice numbers", () => {
  it("stay 1..N without a gap, one per paid order, while payments race on two instances and some roll back", async () => {
    const before = await invoiceRows();
    const sandboxPaid = await Promise.all(Array.from({ length: 30 }, (_, i) => placeOrder(payer(i))));
    const direct = await Promise.all(Array.from({ length: 17 }, (_, i) => placeOrder(payer(i))));

    // One payment takes the next number and keeps its transaction open while the others start:
    // half the card payments through each instance, and payments recorded on bare connections, one
    // or three orders a statement, committed or rolled back. Once some card payments wait behind
    // it too, it gives its number back.
    const { numbered, unnumbered } = await stage.race(
      PAY,
      direct,
      () => sandboxPaid.map((id, i) => pay(i % 2 ? stage.other() : ctx, payer(i), id)),
      2,
    );

    const after = await invoiceRows();
    const numbers = after.map((r) => r.number);
    expect(numbers).toEqual(Array.from({ length: numbers.length }, (_, i) => i + 1));
    const [sequence] = await ctx.database.db.select().from(invoiceSequence);
    expect(sequence?.next).toBe(numbers.length + 1);

    // One invoice per paid order, and none for an order whose payment rolled back.
    const paid = await ctx.database.db.select({ id: orders.id }).from(orders).where(isNotNull(orders.paidAt));
    expect(after.map((r) => r.orderId).sort()).toEqual(paid.map((r) => r.id).sort());
    const fresh = new Set(after.slice(before.length).map((r) => r.orderId));
    expect(fresh).toEqual(new Set([...sandboxPaid, ...numbered]));
    for (const id of unnumbered) expect(fresh.has(id), id).toBe(false);

    // Each invoice is issued at its order's payment date.
    const issued = await ctx.database.db.execute<{ mismatched: number }>(
      sql`select count(*)::int as mismatched from ${invoices} i join ${orders} o on o.id = i.order_id
          where i.issued_at <> o.paid_at`,
    );
    expect(issued.rows[0]?.mismatched).toBe(0);
  });
});
