import { sql } from "drizzle-orm";
import { bigserial, boolean, check, index, integer, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { STOCK_REASONS } from "../../../shared/stock.js";
import { users } from "./auth.js";
import { products } from "./catalog.js";
import { createdAt } from "./columns.js";

/**
 * The stock ledger: one row per change of a product's stock, written by triggers on product in the
 * transaction of the change (migration 0018, src/server/lib/stock.ts), so a product's quantity is
 * always the sum of its movements. Read newest first, a page at a time, by (product_id, id desc).
 */
export const stockMovements = pgTable(
  "stock_movement",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    productId: uuid("product_id")
      .notNull()
      .references(() => products.id, { onDelete: "cascade" }),
    change: integer("change").notNull(),
    stockAfter: integer("stock_after").notNull(),
    reason: text("reason", { enum: STOCK_REASONS }).notNull(),
    /** No foreign key: a removed order is deleted, its movement stays. */
    orderId: uuid("order_id"),
    adminId: text("admin_id").references(() => users.id, { onDelete: "set null" }),
    note: text("note"),
    createdAt: createdAt(),
  },
  (t) => [
    check(
      "stock_movement_reason_known",
      sql.raw(`"stock_movement"."reason" in (${STOCK_REASONS.map((r) => `'${r}'`).join(", ")})`),
    ),
    index("stock_movement_product_idx").on(t.productId, t.id.desc()),
    // Removing an account sets its movements' admin to null: found here, not by reading the ledger.
    index("stock_movement_admin_idx").on(t.adminId).where(sql`${t.adminId} is not null`),
  ],
);

/**
 * The shop's low-stock default (LOW_STOCK_THRESHOLD), one row, written at start-up
 * (features/stock/settings.ts) for the triggers, which read it for products without a threshold.
 */
export const stockSetting = pgTable(
  "stock_setting",
  {
    id: boolean("id").primaryKey().default(true),
    lowStockDefault: integer("low_stock_default").notNull(),
  },
  (t) => [check("stock_setting_one_row", sql`${t.id}`)],
);
