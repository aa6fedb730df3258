import { randomUUID } from "node:crypto";
import { eq, type SQL } from "drizzle-orm";
import type { Db } from "../db/client.js";
import { products } from "../db/schema/index.js";
import { stockCause } from "../lib/stock.js";

/**
 * A new product, as the tests that need one of their own make it: a fan with a name of its own and
 * 1,000 units unless `values` say otherwise. Its id.
 */
export async function insertProduct(
  db: Db,
  values: Partial<typeof products.$inferInsert> = {},
): Promise<string> {
  const [row] = await db
    .insert(products)
    .values({
      name: `Test fan ${randomUUID()}`,
      description: "A fan made by a test.",
      image: "/media/products/gale-120-high-static-pressure-fan.svg",
      price: 25,
      quantity: 1000,
      category: "cooling-fans",
      ...values,
    })
    .returning({ id: products.id });
  if (!row) throw new Error("product insert returned nothing");
  return row.id;
}

/** A new product (a fan at `price` dollars) with `stock` units, for a test that sells its own stock. */
export function stockedProduct(db: Db, stock: number, price = 25): Promise<string> {
  return insertProduct(db, { quantity: stock, price, description: "A fan sold to many buyers at once." });
}

/**
 * Changes a product's stock as an admin would, with no request: in one transaction, the ledger's
 * cause (an adjustment) then `change` (the trigger refuses a change of stock without a reason).
 */
export async function setStockDirectly(
  db: Db,
  where: SQL | undefined,
  quantity: number | SQL,
  note = "test",
): Promise<void> {
  await db.transaction(async (tx) => {
    await stockCause(tx, { reason: "adjustment", note });
    await tx.update(products).set({ quantity }).where(where);
  });
}

/** A product's stock as the database holds it; undefined for no such product (or null: an order's deleted one). */
export async function productStock(db: Db, productId: string | null): Promise<number | undefined> {
  const [row] = await db
    .select({ quantity: products.quantity })
    .from(products)
    .where(eq(products.id, productId ?? ""));
  return row?.quantity;
}
