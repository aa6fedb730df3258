import { bigint, date, index, integer, pgTable, primaryKey, smallint, text, uuid } from "drizzle-orm/pg-core";
import { products } from "./catalog.js";

/** A table kept per product by triggers: keyed by the product, its row removed with it. */
const productKey = () =>
  uuid("product_id")
    .primaryKey()
    .references(() => products.id, { onDelete: "cascade" });

/**
 * Running counts for the admin overview, kept by triggers in the same transaction as every change
 * they count (see the migration), so reading them costs the same at ten orders or ten million and
 * they are exact in every snapshot. Keys: `users`, `orders:<status>`. Each key is spread over a few
 * shards (rows), chosen per transaction, so concurrent orders do not queue on one hot row; a count
 * is the sum of its key's shards.
 */
export const overviewCounts = pgTable(
  "overview_count",
  {
    key: text("key").notNull(),
    shard: smallint("shard").notNull(),
    n: bigint("n", { mode: "number" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.key, t.shard] })],
);

/**
 * The products below their low-stock threshold (their own, or the shop's default in stock_setting),
 * kept by triggers on product (migration 0018): the overview lists and counts them without reading
 * the whole catalog, and product stock updates stay HOT (no index on product.quantity). A row is
 * also its product's alert state: made by a fall of stock, it queues the admins' mail.
 */
export const lowStockProducts = pgTable(
  "low_stock_product",
  {
    productId: productKey(),
    name: text("name").notNull(),
    quantity: integer("quantity").notNull(),
    /** The threshold the product is below. */
    threshold: integer("threshold").notNull(),
  },
  (t) => [index("low_stock_product_order_idx").on(t.quantity, t.name, t.productId)],
);

/**
 * The admin overview's charts, by UTC day, kept by triggers on "order" in the same transaction as
 * every change (the migration that made this table), sharded per transaction like overview_count.
 * A day's `orders` are the orders placed that day and not removed; `paid` the orders paid that
 * day; `revenue` what was paid that day less what was refunded that day, in dollars.
 */
export const salesDays = pgTable(
  "sales_day",
  {
    day: date("day", { mode: "string" }).notNull(),
    shard: smallint("shard").notNull(),
    orders: bigint("orders", { mode: "number" }).notNull().default(0),
    paid: bigint("paid", { mode: "number" }).notNull().default(0),
    revenue: bigint("revenue", { mode: "number" }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.day, t.shard] })],
);

/**
 * Units sold per product: the quantities of its orders paid, shipped or refunded, less those
 * refunded; kept by the same triggers. Read top first through its index.
 */
export const productSales = pgTable(
  "product_sales",
  {
    productId: productKey(),
    units: bigint("units", { mode: "number" }).notNull(),
  },
  (t) => [index("product_sales_top_idx").on(t.units, t.productId)],
);
