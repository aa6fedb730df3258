import { asc, desc, eq, gt, sql } from "drizzle-orm";
import {
  type AdminOverview,
  type AdminSales,
  LOW_STOCK_LIST_SIZE,
  SALES_DAYS,
  TOP_PRODUCTS_SIZE,
} from "../../../shared/admin.js";
import { ORDER_STATUSES, type OrderStatus } from "../../../shared/orders.js";
import type { Db } from "../../db/client.js";
import {
  lowStockProducts,
  overviewCounts,
  productSales,
  products,
  salesDays,
} from "../../db/schema/index.js";

/**
 * A running count of overview_count (kept by triggers: see schema/overview.ts and the migration
 * that made it): the sum of its shards, whatever the number of rows it counts.
 */
function counted(key: string) {
  return sql`(select coalesce(sum(${overviewCounts.n}), 0)::int from ${overviewCounts} where ${eq(overviewCounts.key, key)})`;
}

const ordersIn = (status: OrderStatus) => counted(`orders:${status}`);

/** The overview's numbers as one row: the orders' counts beside the users and the low-stock count. */
export type OverviewCounts = Pick<AdminOverview, "users" | "lowStockCount"> & AdminOverview["orders"];

/**
 * Two statements, run together, each reading a few rows however large the shop: the running counts
 * (each status's 16 shards of overview_count through its primary key, refunded and expired too)
 * with the number of low-stock products, and the first of those, lowest stock first.
 */
export async function getOverview(db: Db): Promise<AdminOverview> {
  const [counts, lowStock] = await Promise.all([
    db.execute<OverviewCounts>(sql`
      select ${counted("users")} as "users", ${ordersIn("pending")} as "unpaid",
             ${ordersIn("paid")} as "paidNotShipped", ${ordersIn("shipped")} as "shipped",
             ${ordersIn("refunded")} as "refunded", ${ordersIn("expired")} as "expired",
             (select count(*)::int from ${lowStockProducts}) as "lowStockCount"`),
    db
      .select({
        id: lowStockProducts.productId,
        name: lowStockProducts.name,
        quantity: lowStockProducts.quantity,
        threshold: lowStockProducts.threshold,
      })
      .from(lowStockProducts)
      .orderBy(asc(lowStockProducts.quantity), asc(lowStockProducts.name), asc(lowStockProducts.productId))
      .limit(LOW_STOCK_LIST_SIZE),
  ]);
  const row = counts.rows[0];
  return {
    users: row?.users ?? 0,
    orders: {
      unpaid: row?.unpaid ?? 0,
      paidNotShipped: row?.paidNotShipped ?? 0,
      shipped: row?.shipped ?? 0,
      refunded: row?.refunded ?? 0,
      expired: row?.expired ?? 0,
    },
    lowStockCount: row?.lowStockCount ?? 0,
    lowStock,
  };
}

type Day = AdminSales["days"][number];

/**
 * The overview's charts: three statements, run together, each reading a bounded number of rows
 * however many orders the shop holds, from sums the triggers of migration 0012 keep in the
 * transaction of every order change (schema/overview.ts). EXPLAIN ANALYZE with two years of days
 * (730 × 16 shards = 11,680 sales_day rows) and 20,000 products sold, whose sizes do not grow
 * with the number of orders:
 * - days: a Bitmap Index Scan on sales_day_day_shard_pk over the window, 480 rows (SALES_DAYS × 16
 *   shards at most), summed per day and joined to the window's days so a quiet day is all zeros:
 *   0.36 ms;
 * - statuses: the running counts the cards read (overview_count, 16 shards a status): 0.13 ms;
 * - top products: an Index Only Scan Backward on product_sales_top_idx stopped by the limit after
 *   10 rows, each a Nested Loop lookup of product_pkey for the name: 0.09 ms.
 * "Today" is the database's UTC day, the day the triggers file an order under.
 */
export async function getSales(db: Db): Promise<AdminSales> {
  const [days, statuses, topProducts] = await Promise.all([
    db.execute<Day>(sql`
      with today as (select (now() at time zone 'UTC')::date as d),
      sums as (
        select ${salesDays.day} as day, sum(${salesDays.orders}) as orders, sum(${salesDays.paid}) as paid,
               sum(${salesDays.revenue}) as revenue
        from ${salesDays}, today
        where ${salesDays.day} between today.d - ${SALES_DAYS - 1}::int and today.d
        group by ${salesDays.day}
      )
      select to_char(today.d - g, 'YYYY-MM-DD') as "day", coalesce(sums.orders, 0)::int as "orders",
             coalesce(sums.paid, 0)::int as "paid", coalesce(sums.revenue, 0)::bigint as "revenue"
      from today cross join generate_series(${SALES_DAYS - 1}::int, 0, -1) as g
      left join sums on sums.day = today.d - g
      order by g desc`),
    db.execute<Record<OrderStatus, number>>(
      sql`select ${sql.join(
        ORDER_STATUSES.map((status) => sql`${ordersIn(status)} as ${sql.identifier(status)}`),
        sql`, `,
      )}`,
    ),
    db
      .select({ id: productSales.productId, name: products.name, units: productSales.units })
      .from(productSales)
      .innerJoin(products, eq(products.id, productSales.productId))
      .where(gt(productSales.units, 0))
      .orderBy(desc(productSales.units), desc(productSales.productId))
      .limit(TOP_PRODUCTS_SIZE),
  ]);
  const counts = statuses.rows[0];
  return {
    days: days.rows,
    statuses: ORDER_STATUSES.map((status) => ({ status, orders: counts?.[status] ?? 0 })),
    topProducts,
  };
}
