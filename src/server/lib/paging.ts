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

const TIMESTAMP =
  /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})(\.\d{1,6})?(?:([+-])(\d{2})(?::?(\d{2}))?|Z)?$/;

/**
 * A time PostgreSQL accepts: the right shape and every field in range (no 31 February, no hour 24,
 * no offset beyond ±15:59), so a forged cursor is refused here instead of failing in the database.
 */
function isTimestamp(text: string): boolean {
  const match = TIMESTAMP.exec(text);
  if (!match) return false;
  const field = (index: number) => Number(match[index] ?? 0);
  const [year, month, day] = [field(1), field(2), field(3)];
  // Date.UTC rolls an impossible day over into the next month; years below 100 mean 19xx to it,
  // which have the same leap years.
  const date = new Date(Date.UTC(year, month - 1, day));
  return (
    year >= 1 &&
    date.getUTCMonth() === month - 1 &&
    date.getUTCDate() === day &&
    field(4) < 24 &&
    field(5) < 60 &&
    field(6) < 60 &&
    field(9) < 16 &&
    field(10) < 60
  );
}

/** Ids as the shop makes them (better-auth's and PostgreSQL's UUIDs): no character the database refuses. */
const TEXT_ID = /^[A-Za-z0-9_-]{1,64}$/;
/** For lists keyed by a uuid column, whose comparison fails on anything else. */
export const UUID_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function decodeCursor(
  token: string | undefined,
  message: string,
  idPattern: RegExp = TEXT_ID,
): KeyCursor | undefined {
  if (token === undefined) return undefined;
  try {
    const value: unknown = JSON.parse(Buffer.from(token, "base64url").toString("utf8"));
    if (
      Array.isArray(value) &&
      value.length === 2 &&
      typeof value[0] === "string" &&
      typeof value[1] === "string" &&
      isTimestamp(value[0]) &&
      idPattern.test(value[1])
    )
      return { at: value[0], id: value[1] };
  } catch {
    // Refused below.
  }
  throw badRequest(message);
}

/**
 * Counts the rows of `from` (a FROM ... WHERE ... clause) up to `limit` (EXACT_COUNT_LIMIT unless
 * said): exact below it, "more than `limit`" above, so a count never reads more rows than that.
 */
export async function boundedCount(db: Db, from: SQL, limit = EXACT_COUNT_LIMIT): Promise<ListCount> {
  const result = await db.execute<{ n: number }>(
    sql`select count(*)::int as n from (select 1 ${from} limit ${limit + 1}) capped`,
  );
  const n = result.rows[0]?.n ?? 0;
  return n > limit ? { count: limit, exact: false } : { count: n, exact: true };
}
