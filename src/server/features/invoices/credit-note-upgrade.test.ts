import { asc, eq, sql } from "drizzle-orm";
import { migrate } from "drizzle-orm/node-postgres/migrator";
import { describe, expect, it } from "vitest";
import { runMigrations } from "../../db/migrate.js";
import { creditNoteSequence, creditNotes, invoices, mailOutbox, orders } from "../../db/schema/index.js";
import { migrationsUpTo, setUpEmptyDatabase } from "../../test/migrations.js";

/**
 * Migration 0025 gives the orders refunded before it a credit note each: those with an invoice,
 * numbered in the order they were refunded, issued at the refund, for the order's gross; the next
 * refund takes the number after them.
 */
const BEFORE = "0024_prices_codes_tax";

const database = setUpEmptyDatabase();

describe("migration 0025 on a shop with refunds", () => {
  it("issues credit notes for the orders refunded before it, in the order they were refunded", async () => {
    const db = database.db;
    await migrate(db, { migrationsFolder: migrationsUpTo(BEFORE) });
    await db.execute(
      sql`insert into "user" (id, name, email, phone) values ('u1', 'Rita Refund', 'rita@example.com', '+1 555 0100')`,
    );
    const [product] = (
      await db.execute<{ id: string }>(sql`
        insert into product (name, description, image, price, quantity, category)
        values ('Old Fan', 'Sold before credit notes.', '/media/products/x.svg', 12, 500, 'keyboards') returning id`)
    ).rows;
    const hour = 3_600_000;
    const start = Date.now() - 100 * hour;
    // Paid in this order (so invoiced 1..4); refunded in another: the third first, then the first.
    const order = (i: number, status: "paid" | "refunded", refundedAfterHours: number | null) => {
      const paidAt = new Date(start + i * hour).toISOString();
      const refundedAt =
        refundedAfterHours === null ? null : new Date(start + refundedAfterHours * hour).toISOString();
      return sql`('u1', ${product?.id}::uuid, 'Old Fan', '/media/products/x.svg', 'Rita Refund', 'rita@example.com',
        '1 Old Road', '+1 555 0100', 10, 12, 120, ${12_000 + i}, ${12_000 + i}, ${status}::order_status,
        ${`pi_old_${i}`}, ${paidAt}::timestamptz, ${refundedAt}::timestamptz, ${paidAt}::timestamptz)`;
    };
    const placed = (
      await db.execute<{ id: string }>(sql`
        insert into "order" (user_id, product_id, product_name, img, name, email, address, phone, quantity,
          unit_price, total_price, net_cents, gross_cents, status, transaction_id, paid_at, refunded_at, created_at)
        values ${sql.join([order(1, "refunded", 50), order(2, "paid", null), order(3, "refunded", 40), order(4, "paid", null)], sql`, `)}
        returning id`)
    ).rows.map((r) => r.id);
    const [first, second, third, fourth] = placed as [string, string, string, string];
    const invoiceOf = async (orderId: string) =>
      (await db.select().from(invoices).where(eq(invoices.orderId, orderId)))[0]?.number;
    expect(await Promise.all(placed.map(invoiceOf))).toEqual([1, 2, 3, 4]);

    await runMigrations(database);

    const notes = await db.select().from(creditNotes).orderBy(asc(creditNotes.number));
    expect(notes).toEqual([
      {
        number: 1,
        orderId: third,
        invoiceNumber: 3,
        amountCents: 12_003,
        issuedAt: new Date(start + 40 * hour),
      },
      {
        number: 2,
        orderId: first,
        invoiceNumber: 1,
        amountCents: 12_001,
        issuedAt: new Date(start + 50 * hour),
      },
    ]);
    const numbers = await db
      .select({ id: orders.id, number: orders.creditNoteNumber })
      .from(orders)
      .orderBy(asc(orders.paidAt));
    expect(numbers).toEqual([
      { id: first, number: 2 },
      { id: second, number: null },
      { id: third, number: 1 },
      { id: fourth, number: null },
    ]);
    expect((await db.select().from(creditNoteSequence))[0]?.next).toBe(3);
    // No mails for the past.
    expect(await db.select().from(mailOutbox)).toEqual([]);

    // The next refund takes the next number.
    await db.update(orders).set({ status: "refunded", refundedAt: new Date() }).where(eq(orders.id, fourth));
    const [next] = await db.select().from(creditNotes).where(eq(creditNotes.orderId, fourth));
    expect(next).toMatchObject({ number: 3, invoiceNumber: 4, amountCents: 12_004 });
  });
});
