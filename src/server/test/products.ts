import { randomUUID } from "node:crypto";
import type { SQL } from "drizzle-orm";
import type { Db } from "../db/client.js";
import { products } from "../db/schema/index.js";
import { stockCause } from "../lib/stock.js";

/** A new product (a fan at `price` dollars) with `stock` units, for a test that sells its own stock. */
export async function stockedProduct(db: Db, stock: number, price = 25): Promise<string> {
  const [row] = await db
    .insert(products)
    .values({
      name: `Test fan ${randomUUID()}`,
      description: "A fan sold to many buyers at once.",
      image: "/media/products/gale-120-high-static-pressure-fan.svg",
      price,
      quantity: stock,
      category: "cooling-fans",
    })
    .returning({ id: products.id });
  if (!row) throw new Error("product insert returned nothing");
  return row.id;
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
