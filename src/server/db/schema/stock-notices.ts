import { sql } from "drizzle-orm";
import { index, pgTable, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { ownerId } from "./auth.js";
import { products } from "./catalog.js";
import { createdAt, moment } from "./columns.js";

/**
 * Back-in-stock subscriptions (features/stock-notices): a customer asks to be told when a product
 * that cannot be booked is back. The notice job (stock-notices/job.ts) ends a subscription by
 * setting notified_at in the statement that queues its mail in the outbox (kind back_in_stock,
 * order_id = this row's id), in the order the customers asked; the row stays until it is 90 days
 * old, so the outbox can still read it when it sends. A subscription 90 days old ends unmailed; a
 * cancelled or unsubscribed one is deleted.
 */
export const stockNotices = pgTable(
  "stock_notice",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: ownerId().notNull(),
    productId: uuid("product_id")
      .notNull()
      .references(() => products.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
    /** When its mail was queued: the subscription has ended. */
    notifiedAt: moment("notified_at"),
  },
  (t) => [
    // One open subscription per customer and product.
    uniqueIndex("stock_notice_open_idx").on(t.userId, t.productId).where(sql`${t.notifiedAt} is null`),
    // The dashboard's list, newest first, a page at a time (keyset on created_at, id); whole, not
    // partial, so removing an account finds its rows by it too (ON DELETE CASCADE).
    index("stock_notice_user_idx").on(t.userId, t.createdAt, t.id),
    // A product's subscriptions in the order they were asked; and its cascade when removed.
    index("stock_notice_product_idx").on(t.productId, t.createdAt, t.id),
    // The job's expiry: the oldest rows first, open or ended.
    index("stock_notice_created_idx").on(t.createdAt, t.id),
  ],
);
