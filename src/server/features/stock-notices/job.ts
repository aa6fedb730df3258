import { sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import { MIN_ORDER_QUANTITY } from "../../../shared/constants.js";
import { STOCK_NOTICE_DAYS } from "../../../shared/stock-notices.js";
import type { Db } from "../../db/client.js";
import { mailOutbox, products, stockNotices } from "../../db/schema/index.js";
import { oldestBatch } from "../../lib/batched.js";
import { type PeriodicJob, startPeriodicJob } from "../../lib/periodic.js";

/** Subscriptions one step queues or removes: a step is one short statement at any size. */
const STOCK_NOTICE_BATCH = 500;
/** Steps of each kind in one run, at most; the next run goes on where this one stopped. */
const BATCHES_PER_RUN = 20;

/**
 * Queues the mail of up to `batch` open subscriptions whose product is back (stock at the booking
 * minimum or more, and on sale: an archived product's subscriptions wait, unmailed, until it is
 * restored or they are STOCK_NOTICE_DAYS old), the oldest asked first, and ends them, in one statement: each gets its outbox
 * row (kind back_in_stock, order_id naming it) in the transaction that sets its notified_at, so a
 * subscription is mailed once, and the outbox's ids follow the order the customers asked in (the
 * sender takes due rows by due_at, id). Rows another instance's step holds are skipped. Returns how
 * many were queued.
 */
export async function queueBackInStock(db: Db, batch = STOCK_NOTICE_BATCH): Promise<number> {
  const due = oldestBatch(
    sql`select n.id, n.created_at from ${stockNotices} n join ${products} p on p.id = n.product_id
      where n.notified_at is null and p.quantity >= ${MIN_ORDER_QUANTITY} and p.archived_at is null
        and n.created_at > now() - make_interval(days => ${STOCK_NOTICE_DAYS})`,
    sql`n.created_at, n.id`,
    batch,
    sql`n`,
  );
  const result = await db.execute(sql`
    with due as (${due}),
    ended as (
      update ${stockNotices} s set notified_at = now() from due where s.id = due.id
      returning s.id, s.created_at
    )
    insert into ${mailOutbox} (kind, order_id)
    select 'back_in_stock', id from ended order by created_at, id
    on conflict (order_id, kind) do nothing`);
  return result.rowCount ?? 0;
}

/**
 * Removes up to `batch` subscriptions asked STOCK_NOTICE_DAYS ago or more: open ones end unmailed,
 * mailed ones have long been sent (from the oldest, by stock_notice_created_idx). Returns how many.
 */
export async function removeOldNotices(db: Db, batch = STOCK_NOTICE_BATCH): Promise<number> {
  const old = oldestBatch(
    sql`select id from ${stockNotices} where created_at <= now() - make_interval(days => ${STOCK_NOTICE_DAYS})`,
    sql`created_at, id`,
    batch,
  );
  const result = await db.execute(sql`delete from ${stockNotices} where id in (${old})`);
  return result.rowCount ?? 0;
}

/** One run: queue what is due, then remove what is old, each in bounded steps. */
export async function runStockNotices(
  db: Db,
  stopped: () => boolean = () => false,
): Promise<{ queued: number; removed: number }> {
  let queued = 0;
  let removed = 0;
  for (let i = 0; i < BATCHES_PER_RUN && !stopped(); i++) {
    const n = await queueBackInStock(db);
    queued += n;
    if (n < STOCK_NOTICE_BATCH) break;
  }
  for (let i = 0; i < BATCHES_PER_RUN && !stopped(); i++) {
    const n = await removeOldNotices(db);
    removed += n;
    if (n < STOCK_NOTICE_BATCH) break;
  }
  return { queued, removed };
}

export function startStockNoticeJob(db: Db, intervalSeconds: number, log: FastifyBaseLogger): PeriodicJob {
  return startPeriodicJob(
    intervalSeconds,
    async (stopped) => {
      try {
        const done = await runStockNotices(db, stopped);
        if (done.queued > 0 || done.removed > 0) log.info(done, "back-in-stock notices");
      } catch (error) {
        log.error({ err: error }, "back-in-stock notices: run failed");
      }
    },
    "back-in-stock notices",
  );
}
