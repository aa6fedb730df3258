import { sql } from "drizzle-orm";
import { bigint, boolean, check, pgTable, uuid } from "drizzle-orm/pg-core";
import { moment } from "./columns.js";
import { orders } from "./orders.js";

/**
 * One invoice per paid order, numbered 1, 2, 3, … without a gap: the trigger that records an order
 * as paid (the migration that made this table) takes the next number from invoice_sequence in the
 * same transaction, whose row lock makes concurrent payments (on every instance) take turns, and
 * whose rollback gives the number back. A paid order is never removed, so neither is its invoice.
 */
export const invoices = pgTable("invoice", {
  number: bigint("number", { mode: "number" }).primaryKey(),
  orderId: uuid("order_id")
    .notNull()
    .unique("invoice_order_idx")
    .references(() => orders.id, { onDelete: "restrict" }),
  issuedAt: moment("issued_at").notNull().defaultNow(),
});

/** The next invoice number: one row. */
export const invoiceSequence = pgTable(
  "invoice_sequence",
  {
    one: boolean("one").primaryKey().default(true),
    next: bigint("next", { mode: "number" }).notNull(),
  },
  (t) => [check("invoice_sequence_one_row", sql`${t.one}`)],
);
