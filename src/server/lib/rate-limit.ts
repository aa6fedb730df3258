import { sql } from "drizzle-orm";
import type { Db } from "../db/client.js";
import { rateLimits } from "../db/schema/index.js";
import { TooManyRequests } from "./problem.js";

interface RateLimitResult {
  allowed: boolean;
  retryAfterSeconds: number;
}

/** The pool or a transaction: inside one, a hit rolls back with the work it allowed. */
type Executor = Pick<Db, "insert">;

/**
 * Fixed-window counter in PostgreSQL, bumped in one atomic statement (an upsert), so concurrent
 * requests and several instances share one limit. In the update, the columns are the stored row's.
 */
export async function hitRateLimit(
  db: Executor,
  key: string,
  max: number,
  windowSeconds: number,
): Promise<RateLimitResult> {
  const windowLength = sql`make_interval(secs => ${windowSeconds})`;
  const windowOver = sql`${rateLimits.windowStart} <= now() - ${windowLength}`;
  const [row] = await db
    .insert(rateLimits)
    .values({ key, count: 1, windowStart: sql`now()` })
    .onConflictDoUpdate({
      target: rateLimits.key,
      set: {
        count: sql`case when ${windowOver} then 1 else ${rateLimits.count} + 1 end`,
        windowStart: sql`case when ${windowOver} then now() else ${rateLimits.windowStart} end`,
      },
    })
    .returning({
      count: rateLimits.count,
      retry: sql<number>`ceil(extract(epoch from (${rateLimits.windowStart} + ${windowLength} - now())))::int`,
    });
  return { allowed: (row?.count ?? 0) <= max, retryAfterSeconds: Math.max(1, row?.retry ?? windowSeconds) };
}

/**
 * Counts a hit under `key` and throws a 429 problem with `Retry-After` once more than `max` fall in
 * one window; `detail` is the answer's message, or makes it from the seconds left to wait.
 */
export async function enforceRateLimit(
  db: Executor,
  key: string,
  limit: { max: number; windowSeconds: number },
  detail: string | ((retryAfterSeconds: number) => string),
): Promise<void> {
  const hit = await hitRateLimit(db, key, limit.max, limit.windowSeconds);
  if (hit.allowed) return;
  const text = typeof detail === "string" ? detail : detail(hit.retryAfterSeconds);
  throw new TooManyRequests(text, hit.retryAfterSeconds);
}
