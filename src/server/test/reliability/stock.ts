import { eq } from "drizzle-orm";
import { createDatabase, type Db } from "../../db/client.js";
import { orders, products } from "../../db/schema/index.js";

/**
 * What the database holds of one product: its orders (id → quantity) and its stock. Every unit is
 * either in stock or in an order, so `stock + orderedUnits` stays the starting stock.
 */
export async function productLedger(db: Db, productId: string) {
  const rows = await db
    .select({ id: orders.id, quantity: orders.quantity })
    .from(orders)
    .where(eq(orders.productId, productId));
  const [product] = await db
    .select({ quantity: products.quantity })
    .from(products)
    .where(eq(products.id, productId));
  if (!product) throw new Error(`the product ${productId} is gone`);
  return {
    orders: new Map(rows.map((r) => [r.id, r.quantity])),
    orderedUnits: rows.reduce((sum, r) => sum + r.quantity, 0),
    stock: product.quantity,
  };
}

/** `work` on one connection of its own to the database at `url`, closed after it: the tests stop these databases. */
export async function withDatabase<T>(url: string, work: (db: Db) => Promise<T>): Promise<T> {
  const database = createDatabase(url, { max: 1 });
  try {
    return await work(database.db);
  } finally {
    await database.close();
  }
}
