import type { Db } from "../db/client.js";
import { orders } from "../db/schema/index.js";

/**
 * An order written straight to the database, as the shop would have stored it: ten units of a fan
 * at $12 with neither discount nor tax, pending, of no account, unless `values` say otherwise. Its id.
 */
export async function insertOrder(db: Db, values: Partial<typeof orders.$inferInsert> = {}): Promise<string> {
  const [row] = await db
    .insert(orders)
    .values({
      productName: "Gale 120 Fan",
      img: "/media/products/x.svg",
      name: "Olive Order",
      email: "olive.order@example.com",
      address: "1 Loop Road, Austin",
      phone: "5550123",
      quantity: 10,
      unitPrice: 12,
      totalPrice: 120,
      netCents: 120 * 100,
      grossCents: 120 * 100,
      ...values,
    })
    .returning({ id: orders.id });
  if (!row) throw new Error("the order was not inserted");
  return row.id;
}
