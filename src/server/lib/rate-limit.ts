import { sql } from "drizzle-orm";
import type { Db } from "../db/client.js";

export interface RateLimitResult {
  allowed: boolean;
  retryAfterSeconds: number;
}

/**
 * Fixed-window counter in PostgreSQL, bumped in one atomic statement, so concurrent requests and
 * several instances share one limit.
 */
export async function hitRateLimit(
  db: Db,
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
