import { sql } from "drizzle-orm";
import { bigint, boolean, check, integer, pgTable, uuid } from "drizzle-orm/pg-core";
import { moment } from "./columns.js";
import { invoices } from "./invoices.js";
import { orders } from "./orders.js";

/**
 * One credit note per refunded order that has an invoice (docs/product.md, "Credit notes"),
 * numbered 1, 2, 3, … without a gap in a series of its own: the trigger that sees an order become
 * refunded (migration 0025) takes the next number from credit_note_sequence in the same
 * transaction, whose row lock makes concurrent refunds (on every instance) take turns, and whose
 * rollback gives the number back. It credits the order's invoice in full (amount_cents is the
 * order's gross_cents) and is issued at the refund (the order's refunded_at). The invoice stays as
 * it was issued; a refunded order is never removed, so neither is its credit note.
 */
export const creditNotes = pgTable(
  "credit_note",
  {
    number: bigint("number", { mode: "number" }).primaryKey(),
    orderId: uuid("order_id")
      .notNull()
      .unique("credit_note_order_idx")
      .references(() => orders.id, { onDelete: "restrict" }),
    invoiceNumber: bigint("invoice_number", { mode: "number" })
      .notNull()
      .unique("credit_note_invoice_idx")
      .references(() => invoices.number, { onDelete: "restrict" }),
    amountCents: integer("amount_cents").notNull(),
    issuedAt: moment("issued_at").notNull(),
  },
  (t) => [check("credit_note_amount", sql`${t.amountCents} >= 0`)],
);

/** The next credit note number: one row. */
export const creditNoteSequence = pgTable(
  "credit_note_sequence",
  {
    one: boolean("one").primaryKey().default(true),
    next: bigint("next", { mode: "number" }).notNull(),
  },
  (t) => [check("credit_note_sequence_one_row", sql`${t.one}`)],
);
