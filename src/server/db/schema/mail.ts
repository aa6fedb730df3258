import { sql } from "drizzle-orm";
import { bigserial, index, integer, pgEnum, pgTable, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { createdAt, moment } from "./columns.js";

export const MAIL_KINDS = [
  "order_placed",
  "payment_reminder",
  "payment_receipt",
  "order_shipped",
  "order_refunded",
  "order_expired",
  /** To one admin: a product's stock fell below its threshold (features/stock). */
  "low_stock",
  // Added by 0019, after low_stock (0018): the database's order. Not an order's: order_id holds a
  // stock_notice's id (features/stock-notices).
  "back_in_stock",
] as const;
export type MailKind = (typeof MAIL_KINDS)[number];
export const mailKind = pgEnum("mail_kind", MAIL_KINDS);

/**
 * The order mails still to send and those sent (features/mail/outbox.ts). A row is written in the
 * same transaction as the change it tells of, by triggers on "order" (the migration that made this
 * table) or by the reminder job, at most once per order and kind; the shop's own sender claims due
 * rows (FOR UPDATE SKIP LOCKED, so several instances share the work), renders them from the order
 * as it is then, and marks them sent, or due again later with backoff. Rows sent or given up are
 * removed after MAIL_OUTBOX_RETENTION_DAYS (features/retention).
 */
export const mailOutbox = pgTable(
  "mail_outbox",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    kind: mailKind("kind").notNull(),
    /**
     * No foreign key: a mail about an order removed before it went out is dropped, not cascaded.
     * Null for a mail about a product (low_stock).
     */
    orderId: uuid("order_id"),
    /** A low_stock mail's product; no foreign key, as for orders. */
    productId: uuid("product_id"),
    /** A low_stock mail's admin (user id), checked again when it is sent. */
    recipientId: text("recipient_id"),
    createdAt: createdAt(),
    attempts: integer("attempts").notNull().default(0),
    /** When the sender may take it: now for a new mail, later after a failure. */
    dueAt: moment("due_at").notNull().defaultNow(),
    sentAt: moment("sent_at"),
    /** Given up (the order is gone, or too many failures); with lastError saying why. */
    droppedAt: moment("dropped_at"),
    lastError: text("last_error"),
    /**
     * The sender that holds the row now (features/mail/outbox.ts): set when a sender claims it, with
     * due_at moved to the lease's end, so no other sender takes it meanwhile and it is due again by
     * itself if that sender dies. Only the holder of the lease marks the row sent or failed.
     */
    leaseId: uuid("lease_id"),
    /**
     * The trace context (W3C traceparent) of the transaction that queued the mail, when the shop
     * records traces (lib/tracing.ts): the send becomes a span of that trace. Read by default from
     * the transaction's gearhouse.trace_parent setting, which only a traced shop sets.
     */
    traceParent: text("trace_parent").default(
      sql`nullif(current_setting('gearhouse.trace_parent', true), '')`,
    ),
  },
  (t) => [
    uniqueIndex("mail_outbox_order_kind_idx").on(t.orderId, t.kind),
    index("mail_outbox_due_idx").on(t.dueAt, t.id).where(sql`${t.sentAt} is null and ${t.droppedAt} is null`),
    // The retention job's next batch: the rows sent or given up longest ago (features/retention).
    index("mail_outbox_done_idx")
      .on(sql`coalesce(${t.sentAt}, ${t.droppedAt})`)
      .where(sql`${t.sentAt} is not null or ${t.droppedAt} is not null`),
  ],
);
