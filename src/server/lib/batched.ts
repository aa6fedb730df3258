import { type SQL, sql } from "drizzle-orm";

/**
 * The rows one bounded step takes (retention's steps, the image sweep): those `rows` selects, at
 * most `batch` of them, the oldest first by `oldest` (an order an index serves, so a step costs
 * the same at any size of the table), locked until the step's statement ends. Rows another
 * instance's step holds are skipped (SKIP LOCKED), so steps running side by side never wait on
 * each other nor take a row twice. `lockOf` names the table whose rows are locked when `rows`
 * reads several.
 */
export function oldestBatch(rows: SQL, oldest: SQL, batch: number, lockOf?: SQL): SQL {
  const lock = lockOf ? sql`for update of ${lockOf} skip locked` : sql`for update skip locked`;
  return sql`${rows} order by ${oldest} limit ${batch} ${lock}`;
}
