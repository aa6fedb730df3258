import { sql } from "drizzle-orm";
import type { FastifyPluginAsync } from "fastify";
import type { Db } from "../../db/client.js";
import { countOrders } from "../../lib/metrics.js";
import { runInBackground, startPeriodicJob } from "../../lib/periodic.js";
import { returnToStock, stockCause } from "../../lib/stock.js";
import type { CatalogCache, CatalogChange } from "../catalog/index.js";
import { changeCatalog } from "../catalog/index.js";
import { fromState, nextStatus } from "./lifecycle.js";

/**
 * What the orders feature asks of payments once orders left "pending" without being paid (removed
 * or expired): cancel their payment intents at the provider, and refund any that succeeded
 * meanwhile. app.ts hands it over from the payments feature (orders never imports payments).
 */
export type ReleaseIntents = (orderIds: string[], reason: "order_removed" | "order_expired") => Promise<void>;

/** Orders expired by one statement: its work stays bounded whatever the backlog. */
const EXPIRY_BATCH = 100;

interface ExpiredOrder {
  id: string;
  productId: string | null;
  quantity: number;
}

/**
 * One bounded step of the expiry job, in one transaction: the due unpaid orders (hold run out,
 * order_pending_expires_idx), soonest first, locked with SKIP LOCKED so that another instance's job,
 * or a payment settling one of them right now, is never waited for nor expired twice; they become
 * "expired" (lifecycle pending -> expired, still conditional on the status) and their units go back
 * to stock, each product's cached pages told (changeCatalog's pattern). A payment that locked the
 * order first wins (a paid order never expires); one that comes after finds it expired and is
 * refunded (features/payments).
 */
async function expireDueOrders(db: Db, change: CatalogChange, batch = EXPIRY_BATCH): Promise<ExpiredOrder[]> {
  return db.transaction(async (tx) => {
    const pending = fromState("expire");
    const result = await tx.execute<{ id: string; product_id: string | null; quantity: number }>(sql`
      with due as (
        select id from "order"
        where status = ${pending} and expires_at <= now()
        order by expires_at
        limit ${batch}
        for update skip locked
      )
      update "order" o set status = ${nextStatus("expire")}, expired_at = now()
      from due where o.id = due.id and o.status = ${pending}
      returning o.id, o.product_id, o.quantity`);
    const expired = result.rows.map((r) => ({ id: r.id, productId: r.product_id, quantity: r.quantity }));
    countOrders("expired", expired.length);
    // One order at a time, each its own movement in the ledger (naming the order), in product id
    // order, so two instances' batches take product locks alike.
    const returned = expired
      .filter((order): order is ExpiredOrder & { productId: string } => order.productId !== null)
      .sort((a, b) => a.productId.localeCompare(b.productId) || a.id.localeCompare(b.id));
    for (const order of returned) {
      await stockCause(tx, { reason: "expiry", orderId: order.id });
      await returnToStock(tx, order, change);
    }
    return expired;
  });
}

/**
 * Expires every due order, a batch at a time, then releases their payment intents (cancelled at
 * the provider; refunded if one succeeded meanwhile). The number of orders expired.
 */
async function runExpiry(
  db: Db,
  cache: CatalogCache,
  release: ReleaseIntents,
  batch = EXPIRY_BATCH,
): Promise<number> {
  let total = 0;
  for (;;) {
    const expired = await changeCatalog(cache, (change) => expireDueOrders(db, change, batch));
    total += expired.length;
    if (expired.length > 0)
      await release(
        expired.map((o) => o.id),
        "order_expired",
      );
    if (expired.length < batch) return total;
  }
}

/**
 * The expiry job, every ORDER_EXPIRY_INTERVAL_SECONDS, inside every instance (no extra service):
 * SKIP LOCKED lets each expire different orders. Registered in app.ts; a failed run is logged and
 * the next one tries again. Its metric is gearhouse_orders_total{event="expired"} (countOrders).
 */
export const orderExpiryJob: FastifyPluginAsync<{ releaseIntents: ReleaseIntents }> = async (
  app,
  { releaseIntents },
) => {
  runInBackground(app, {
    start: () =>
      startPeriodicJob(
        app.config.orders.expiryIntervalSeconds,
        async () => {
          try {
            const expired = await runExpiry(app.db, app.catalogCache, releaseIntents);
            if (expired > 0) app.log.info({ expired }, "unpaid orders expired");
          } catch (error) {
            app.log.error({ err: error }, "order expiry failed");
          }
        },
        "order expiry",
      ),
  });
};
