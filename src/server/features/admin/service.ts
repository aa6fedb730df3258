import { asc, eq, sql } from "drizzle-orm";
import { type AdminOverview, LOW_STOCK_LIST_SIZE } from "../../../shared/admin.js";
import type { OrderStatus } from "../../../shared/orders.js";
import type { Db } from "../../db/client.js";
import { lowStockProducts, overviewCounts } from "../../db/schema/index.js";

/**
 * A running count of overview_count (kept by triggers: see schema/overview.ts and the migration
 * that made it): the sum of its shards, whatever the number of rows it counts.
 */
function counted(key: string) {
  return sql`(select coalesce(sum(${overviewCounts.n}), 0)::int from ${overviewCounts} where ${eq(overviewCounts.key, key)})`;
}

const ordersIn = (status: OrderStatus) => counted(`orders:${status}`);

type Counts = {
  users: number;
  unpaid: number;
  paidNotShipped: number;
  shipped: number;
  lowStockCount: number;
};

/**
 * Two statements, run together, each reading a few rows however large the shop: the running counts
 * with the number of low-stock products, and the first of those, lowest stock first.
 */
export async function getOverview(db: Db): Promise<AdminOverview> {
  const [counts, lowStock] = await Promise.all([
    db.execute<Counts>(sql`
      select ${counted("users")} as "users", ${ordersIn("pending")} as "unpaid",
             ${ordersIn("paid")} as "paidNotShipped", ${ordersIn("shipped")} as "shipped",
             (select count(*)::int from ${lowStockProducts}) as "lowStockCount"`),
    db
      .select({
        id: lowStockProducts.productId,
        name: lowStockProducts.name,
        quantity: lowStockProducts.quantity,
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
    },
    lowStockCount: row?.lowStockCount ?? 0,
    lowStock,
  };
}
