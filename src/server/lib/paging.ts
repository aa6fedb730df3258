import { type SQL, sql } from "drizzle-orm";
import { EXACT_COUNT_LIMIT, type ListCount } from "../../shared/paging.js";
import type { Db } from "../db/client.js";
import { badRequest } from "./problem.js";

/**
 * A cursor names the last row of a page by its sort key: for lists newest first, its creation
 * time (to the microsecond, as PostgreSQL keeps it, written as text) and its id. Encoded as
 * base64url JSON; decoding checks the shape, so a forged cursor is a 400, never a 500.
 */
export interface KeyCursor {
  at: string;
  id: string;
}

export function encodeCursor(cursor: KeyCursor): string {
  return Buffer.from(JSON.stringify([cursor.at, cursor.id])).toString("base64url");
}

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}(\.\d{1,6})?([+-]\d{2}(:?\d{2})?|Z)?$/;

export function decodeCursor(token: string | undefined, message: string): KeyCursor | undefined {
  if (token === undefined) return undefined;
  try {
    const value: unknown = JSON.parse(Buffer.from(token, "base64url").toString("utf8"));
    if (
      Array.isArray(value) &&
      value.length === 2 &&
      typeof value[0] === "string" &&
      typeof value[1] === "string" &&
      TIMESTAMP.test(value[0]) &&
      value[1].length > 0 &&
      value[1].length <= 64
    )
      return { at: value[0], id: value[1] };
  } catch {
    // Refused below.
  }
  throw badRequest(message);
}

/**
 * Counts the rows of `from` (a FROM ... WHERE ... clause) up to EXACT_COUNT_LIMIT: exact below it,
 * "more than EXACT_COUNT_LIMIT" above, so a count never reads more than that many index entries.
 */
export async function boundedCount(db: Db, from: SQL): Promise<ListCount> {
  const result = await db.execute<{ n: number }>(
    sql`select count(*)::int as n from (select 1 ${from} limit ${EXACT_COUNT_LIMIT + 1}) capped`,
  );
  const n = result.rows[0]?.n ?? 0;
  return n > EXACT_COUNT_LIMIT ? { count: EXACT_COUNT_LIMIT, exact: false } : { count: n, exact: true };
}
