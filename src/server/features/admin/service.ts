import { asc, lt, sql } from "drizzle-orm";
import { type AdminOverview, LOW_STOCK_LIST_SIZE } from "../../../shared/admin.js";
import { LOW_STOCK_THRESHOLD } from "../../../shared/constants.js";
import type { OrderStatus } from "../../../shared/orders.js";
import type { Db } from "../../db/client.js";
import { orders, products, users } from "../../db/schema/index.js";

const countWhere = (status: OrderStatus) =>
  sql<number>`count(*) filter (where ${orders.status} = ${status})`.mapWith(Number);

/** Two statements, run together: every count in one pass over the orders, and the low-stock list. */
export async function getOverview(db: Db): Promise<AdminOverview> {
  const [counts, lowStock] = await Promise.all([
    db
      .select({
        users: sql<number>`(select count(*) from ${users})`.mapWith(Number),
        unpaid: countWhere("pending"),
        paidNotShipped: countWhere("paid"),
        shipped: countWhere("shipped"),
        lowStockCount:
          sql<number>`(select count(*) from ${products} where ${products.quantity} < ${LOW_STOCK_THRESHOLD})`.mapWith(
            Number,
          ),
      })
      .from(orders),
    db
      .select({ id: products.id, name: products.name, quantity: products.quantity })
      .from(products)
      .where(lt(products.quantity, LOW_STOCK_THRESHOLD))
      .orderBy(asc(products.quantity), asc(products.name), asc(products.id))
      .limit(LOW_STOCK_LIST_SIZE),
  ]);
  const row = counts[0];
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
