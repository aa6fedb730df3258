import { sql } from "drizzle-orm";
import type { Db } from "../db/client.js";
import { TooManyRequests } from "./problem.js";

export interface RateLimitResult {
  allowed: boolean;
  retryAfterSeconds: number;
}

/** The pool or a transaction: inside one, a hit rolls back with the work it allowed. */
type Executor = Pick<Db, "execute">;

/**
 * Fixed-window counter in PostgreSQL, bumped in one atomic statement, so concurrent requests and
 * several instances share one limit.
 */
export async function hitRateLimit(
  db: Executor,
  key: string,
  max: number,
  windowSeconds: number,
): Promise<RateLimitResult> {
  const result = await db.execute<{ count: number; retry: number }>(sql`
    insert into rate_limit (key, count, window_start) values (${key}, 1, now())
    on conflict (key) do update set
      count = case when rate_limit.window_start <= now() - make_interval(secs => ${windowSeconds}) then 1 else rate_limit.count + 1 end,
      window_start = case when rate_limit.window_start <= now() - make_interval(secs => ${windowSeconds}) then now() else rate_limit.window_start end
    returning count, ceil(extract(epoch from (window_start + make_interval(secs => ${windowSeconds}) - now())))::int as retry`);
  const row = result.rows[0];
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
