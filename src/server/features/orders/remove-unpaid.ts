import { and, asc, eq } from "drizzle-orm";
import type { Tx } from "../../db/client.js";
import { orders } from "../../db/schema/index.js";
import { countOrders } from "../../lib/metrics.js";
import { returnToStock, stockCause } from "../../lib/stock.js";
import type { CatalogChange } from "../catalog/index.js";
import { fromState, movableBy } from "./lifecycle.js";

/**
 * Removes every unpaid order of one customer in the caller's transaction, as the customer's own
 * Remove does each (the lifecycle's pending -> removed): the order goes, its units go back to
 * stock, one ledger movement each naming the order, and its discount code's use is freed (the
 * trigger on order delete). Used when the account itself is deleted (features/accounts
 * delete-account.ts). Returns the ids removed, whose payment intents the caller then cancels
 * after commit (ReleaseIntents): a provider call never runs inside a transaction.
 *
 * The rows are locked first, in id order, so a payment settling one of them right now either
 * committed before (the order is paid and kept) or waits and then finds it gone (refunded, as
 * for any removed order).
 */
export async function removeUnpaidOrdersOf(tx: Tx, userId: string, change: CatalogChange): Promise<string[]> {
  const pending = await tx
    .select({ id: orders.id })
    .from(orders)
    .where(and(eq(orders.userId, userId), eq(orders.status, fromState("remove"))))
    .orderBy(asc(orders.id))
    .for("update");
  const removed: string[] = [];
  for (const { id } of pending) {
    // The ledger's cause before the product's lock, as removeOrder names it (no admin: the customer).
    await stockCause(tx, { reason: "removal", orderId: id });
    const [row] = await tx
      .delete(orders)
      .where(and(eq(orders.id, id), movableBy("remove")))
      .returning({ productId: orders.productId, quantity: orders.quantity });
    if (!row) continue;
    removed.push(id);
    if (row.productId) await returnToStock(tx, { productId: row.productId, quantity: row.quantity }, change);
  }
  countOrders("removed", removed.length);
  return removed;
}
