import { type SQL, sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { oldestBatch } from "../../lib/batched.js";

/**
 * Retention (issue 28, item 9): rows that have outlived their use are removed in bounded batches,
 * as the image sweep removes unused images (features/uploads/sweep.ts). Each step takes at most
 * `batch` rows, the oldest first, from an index made for it (migration 0015), so a step costs the
 * same at any size of the shop; rows another instance's step holds are skipped (SKIP LOCKED), so
 * instances running it side by side never wait on each other nor remove a row twice.
 *
 * - Idempotency keys (a retried POST /api/orders gets its first order back) after a day: a retry
 *   comes within seconds or minutes. A key whose order still holds its units is kept until the
 *   order is paid, removed or expired (only a hold longer than a day meets this).
 * - Outbox rows sent or given up, after MAIL_OUTBOX_RETENTION_DAYS (the log of what was mailed). A
 *   payment reminder is kept while its order is unpaid, or the order would be reminded again.
 * - The sandbox's cancelled payment intents, with the shop's record of them (order_intent), after
 *   CANCELLED_INTENT_RETENTION_DAYS: a cancelled intent can never be paid. Stripe's intents live at
 *   Stripe; the shop's record of each is kept, as it is what lets a late payment for a removed
 *   order be refunded.
 * - Rate-limit counters (lib/rate-limit.ts, book_order's) whose window ended: such a row counts as
 *   nothing (the next hit starts a new window in its place), so removing it changes no limit. Kept
 *   for the longest window any counter uses (a day, or a hold's time for the units booked from one
 *   address: config.ts, retention.rateLimitSeconds).
 */
export const RETENTION_BATCH = 500;

/** Idempotency keys are kept this long. */
const IDEMPOTENCY_KEY_SECONDS = 24 * 60 * 60;

const DAY = 24 * 60 * 60;

/** A step's options: how many rows it takes at most (RETENTION_BATCH unless set), and the age due. */
interface Batch {
  batch?: number;
}
interface Days {
  days: number;
}
interface Age {
  olderThanSeconds: number;
}

/** Runs one step's statement: it answers how many rows it removed. */
async function removed(db: Db, statement: SQL): Promise<number> {
  const result = await db.execute<{ n: number }>(statement);
  return result.rows[0]?.n ?? 0;
}

/**
 * One step's statement: `gone` removes the rows of `due` (lib/batched.ts), `after` (more common
 * table expressions, each after a comma) may follow them up, and it answers how many went.
 */
function removal(due: SQL, gone: SQL, after: SQL = sql``): SQL {
  return sql`with due as (${due}), gone as (${gone})${after} select count(*)::int as n from gone`;
}

/** The statement of one step of idempotency keys (the tests EXPLAIN it). */
export function idempotencyKeyStep({
  olderThanSeconds = IDEMPOTENCY_KEY_SECONDS,
  batch = RETENTION_BATCH,
} = {}): SQL {
  const due = sql`select k.user_id, k.key from idempotency_key k
    where k.created_at < now() - make_interval(secs => ${olderThanSeconds})
      and not exists (select 1 from "order" o where o.id = k.order_id and o.status = 'pending')`;
  return removal(
    oldestBatch(due, sql`k.created_at`, batch, sql`k`),
    sql`delete from idempotency_key k using due where k.user_id = due.user_id and k.key = due.key returning 1`,
  );
}

/** The statement of one step of outbox rows. */
export function outboxStep({ days, batch = RETENTION_BATCH }: Days & Batch): SQL {
  const due = sql`select m.id from mail_outbox m
    where coalesce(m.sent_at, m.dropped_at) < now() - make_interval(secs => ${days * DAY})
      and (m.sent_at is not null or m.dropped_at is not null)
      and not (m.kind = 'payment_reminder'
        and exists (select 1 from "order" o where o.id = m.order_id and o.status = 'pending'))`;
  return removal(
    oldestBatch(due, sql`coalesce(m.sent_at, m.dropped_at)`, batch, sql`m`),
    sql`delete from mail_outbox m using due where m.id = due.id returning 1`,
  );
}

/** The statement of one step of cancelled intents, which removes the shop's record of them too. */
export function cancelledIntentStep({ days, batch = RETENTION_BATCH }: Days & Batch): SQL {
  const due = sql`select id from sandbox_intent
    where status = 'canceled' and created_at < now() - make_interval(secs => ${days * DAY})`;
  return removal(
    oldestBatch(due, sql`created_at`, batch),
    sql`delete from sandbox_intent s using due where s.id = due.id returning s.id`,
    sql`, records as (
      delete from order_intent r using gone where r.intent_id = gone.id and r.provider = 'sandbox'
    )`,
  );
}

/** The statement of one step of rate-limit counters whose window ended `olderThanSeconds` ago. */
export function rateLimitStep({ olderThanSeconds, batch = RETENTION_BATCH }: Age & Batch): SQL {
  const due = sql`select key from rate_limit
    where window_start < now() - make_interval(secs => ${olderThanSeconds})`;
  return removal(
    oldestBatch(due, sql`window_start`, batch),
    sql`delete from rate_limit r using due where r.key = due.key returning 1`,
  );
}

/** One step of each table: removes up to a batch of its rows past their time, and says how many. */
export const removeOldIdempotencyKeys = (db: Db, options?: Parameters<typeof idempotencyKeyStep>[0]) =>
  removed(db, idempotencyKeyStep(options));
export const removeOldOutboxRows = (db: Db, options: Parameters<typeof outboxStep>[0]) =>
  removed(db, outboxStep(options));
export const removeCancelledIntents = (db: Db, options: Parameters<typeof cancelledIntentStep>[0]) =>
  removed(db, cancelledIntentStep(options));
export const removeEndedRateLimits = (db: Db, options: Parameters<typeof rateLimitStep>[0]) =>
  removed(db, rateLimitStep(options));
