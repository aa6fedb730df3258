import { type AnyColumn, and, asc, desc, type SQL, sql } from "drizzle-orm";
import type { PgTable, SelectedFields } from "drizzle-orm/pg-core";
import { pagingMessages } from "../../shared/messages/paging.js";
import type { Db } from "../db/client.js";
import { boundedCount, decodeCursor, encodeCursor, type KeyCursor } from "./paging.js";
import { badRequest } from "./problem.js";

/** The sort key of a list newest first: the creation time, then the id to break ties. */
export interface NewestFirstKey {
  createdAt: AnyColumn;
  id: AnyColumn;
}

/** Where a page starts: after a row (the next page), before a row (the previous page), or at the top. */
export interface Position {
  after?: KeyCursor | undefined;
  before?: KeyCursor | undefined;
}

/** Reads the `cursor` (after) and `before` tokens of a list's query; a forged one is a 400. */
export function decodePosition(
  query: { cursor?: string | undefined; before?: string | undefined },
  idPattern?: RegExp,
): Position {
  if (query.cursor !== undefined && query.before !== undefined) throw badRequest(pagingMessages.twoCursors);
  return {
    after: decodeCursor(query.cursor, pagingMessages.badCursor, idPattern),
    before: decodeCursor(query.before, pagingMessages.badCursor, idPattern),
  };
}

/** The cursor column every keyset query selects: the creation time to the microsecond, as text. */
export const cursorAt = (key: NewestFirstKey) => sql<string>`${key.createdAt}::text`;

/**
 * The condition and order of one page. A row comparison on (created_at, id) walks an index on those
 * columns from the cursor on: page 40,000 costs what page 1 does. The previous page is read
 * backwards (oldest first) from its cursor, then turned around.
 */
export function keysetWindow(key: NewestFirstKey, position: Position): { where?: SQL; orderBy: SQL[] } {
  const { after, before } = position;
  if (after)
    return {
      where: sql`(${key.createdAt}, ${key.id}) < (${after.at}::timestamptz, ${after.id})`,
      orderBy: [desc(key.createdAt), desc(key.id)],
    };
  if (before)
    return {
      where: sql`(${key.createdAt}, ${key.id}) > (${before.at}::timestamptz, ${before.id})`,
      orderBy: [asc(key.createdAt), asc(key.id)],
    };
  return { orderBy: [desc(key.createdAt), desc(key.id)] };
}

export interface KeysetRow {
  id: string;
  cursorAt: string;
}

export interface KeysetPage<Row> {
  rows: Row[];
  nextCursor: string | null;
  prevCursor: string | null;
}

const cursorOf = (row: KeysetRow) => encodeCursor({ at: row.cursorAt, id: row.id });

/**
 * Reads one page at `position`: `fetch` gets the window and how many rows to take (one more than a
 * page, which tells whether another page follows). A previous page that reaches the top of the
 * list is the first page, read again from the top so it is a full one.
 */
export async function keysetPage<Row extends KeysetRow>(
  key: NewestFirstKey,
  position: Position,
  limit: number,
  fetch: (window: { where?: SQL; orderBy: SQL[] }, take: number) => Promise<Row[]>,
): Promise<KeysetPage<Row>> {
  let from = position;
  let rows = await fetch(keysetWindow(key, from), limit + 1);
  if (from.before && rows.length <= limit) {
    from = {};
    rows = await fetch(keysetWindow(key, from), limit + 1);
  }
  const more = rows.length > limit;
  const page = rows.slice(0, limit);
  if (from.before) page.reverse();
  const first = page[0];
  const last = page.at(-1);
  return {
    rows: page,
    nextCursor: last && (from.before !== undefined || more) ? cursorOf(last) : null,
    prevCursor:
      first && (from.before !== undefined ? more : from.after !== undefined) ? cursorOf(first) : null,
  };
}

/**
 * One page at `position` of the rows of `table` that match `filter` (its `columns` and the cursor),
 * and how many match (boundedCount). Both are asked for at once, on two connections: a search that
 * matches thousands of rows then costs the slower of the two queries, not their sum.
 */
export function countedPage<Columns extends SelectedFields & { id: AnyColumn }>(
  db: Db,
  table: PgTable & NewestFirstKey,
  columns: Columns,
  filter: SQL | undefined,
  position: Position,
  limit: number,
  countLimit?: number,
) {
  return Promise.all([
    keysetPage(table, position, limit, (window, take) =>
      db
        .select({ ...columns, cursorAt: cursorAt(table) })
        .from(table)
        .where(and(filter, window.where))
        .orderBy(...window.orderBy)
        .limit(take),
    ),
    boundedCount(db, sql`from ${table}${filter ? sql` where ${filter}` : sql``}`, countLimit),
  ]);
}
