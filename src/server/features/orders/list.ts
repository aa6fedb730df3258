import {
  and,
  desc,
  eq,
  getTableColumns,
  gte,
  ilike,
  inArray,
  lt,
  or,
  type Placeholder,
  type SQL,
  sql,
} from "drizzle-orm";
import { messages } from "../../../shared/messages.js";
import { isOrderId, ORDER_STATUSES, type Order, type OrderFilter } from "../../../shared/orders.js";
import type { CursorPage } from "../../../shared/paging.js";
import type { Db } from "../../db/client.js";
import { orders } from "../../db/schema/index.js";
import { boundedCount, decodeCursor, encodeCursor, type KeyCursor } from "../../lib/paging.js";
import { badRequest } from "../../lib/problem.js";
import { toOrder } from "./service.js";

/**
 * The order lists (Manage Orders, My Orders, the CSV export), newest first, read in keyset order
 * (created_at, id) so page 40,000 costs what page 1 does. Every query here is answered from an
 * index of migration 0003 (order_created_id_idx, order_status_created_id_idx,
 * order_user_created_id_idx, and pg_trgm GIN indexes for search); docs/decisions/order-lists.md
 * has their plans at 1,000,000 orders.
 */

/** A cursor's time, as written below: UTC to the microsecond, which is what PostgreSQL keeps. */
const CURSOR_AT = /^(\d{4})-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
export const cursorAt = sql<string>`to_char(${orders.createdAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/**
 * Reads a page cursor, refusing (400) one PostgreSQL could not compare with: decodeCursor checks
 * its shape, this its values (a real time, an order id), so a forged one is never a 500.
 */
function readCursor(token: string | undefined): KeyCursor | undefined {
  const cursor = decodeCursor(token, messages.order.list.pageLinkInvalid);
  if (!cursor) return undefined;
  const year = CURSOR_AT.exec(cursor.at)?.[1];
  const second = cursor.at.slice(0, 19);
  const realTime =
    year !== undefined && Number(year) >= 1970 && new Date(`${second}Z`).toISOString().startsWith(second);
  if (!realTime || !isOrderId(cursor.id)) throw badRequest(messages.order.list.pageLinkInvalid);
  return cursor;
}

/** Orders after the cursor's in the list's order (older, or as old with a smaller id). */
export const after = (cursor: Record<keyof KeyCursor, string | Placeholder>) =>
  sql`(${orders.createdAt}, ${orders.id}) < (${cursor.at}::timestamptz, ${cursor.id}::uuid)`;

const escapeLike = (term: string) => term.replace(/[\\%_]/g, "\\$&");

/**
 * An order id matches exactly (the primary key); other terms match a transaction id exactly or the
 * customer's email or name or the product name as a substring, case-insensitively, each from its
 * trigram index. The shared schema has already refused terms those indexes cannot answer.
 */
function searchCondition(term: string | undefined): SQL | undefined {
  if (!term) return undefined;
  if (isOrderId(term)) return eq(orders.id, term);
  const pattern = `%${escapeLike(term)}%`;
  return or(
    ilike(orders.email, pattern),
    ilike(orders.name, pattern),
    ilike(orders.productName, pattern),
    eq(orders.transactionId, term),
  );
}

export function filterCondition(filter: OrderFilter): SQL | undefined {
  const statuses = filter.status;
  return and(
    // Every status at once is no filter at all.
    statuses && statuses.length < ORDER_STATUSES.length ? inArray(orders.status, statuses) : undefined,
    filter.from ? gte(orders.createdAt, filter.from) : undefined,
    filter.to ? lt(orders.createdAt, filter.to) : undefined,
    searchCondition(filter.search),
  );
}

/** Up to `limit` orders matching `where` after `cursor`, newest first, each with its cursor time. */
export function orderRows(db: Db, where: SQL | undefined, cursor: KeyCursor | undefined, limit: number) {
  return db
    .select({ ...getTableColumns(orders), cursorAt })
    .from(orders)
    .where(and(where, cursor ? after(cursor) : undefined))
    .orderBy(desc(orders.createdAt), desc(orders.id))
    .limit(limit);
}

type Row = Awaited<ReturnType<typeof orderRows>>[number];

export const cursorOf = (row: Row): KeyCursor => ({ at: row.cursorAt, id: row.id });

/**
 * One page of the orders matching `where`, and how many match: exact up to EXACT_COUNT_LIMIT, so
 * the count reads at most that many rows. Both are asked for at once, on two connections: a search
 * that matches thousands of orders then costs the slower of the two queries, not their sum.
 */
async function orderPage(
  db: Db,
  where: SQL | undefined,
  query: { cursor?: string; limit: number },
): Promise<CursorPage<Order>> {
  const cursor = readCursor(query.cursor);
  const [rows, total] = await Promise.all([
    orderRows(db, where, cursor, query.limit + 1),
    boundedCount(db, sql`from ${orders} where ${where ?? sql`true`}`),
  ]);
  const more = rows.length > query.limit;
  const items = more ? rows.slice(0, query.limit) : rows;
  const last = items.at(-1);
  return {
    items: items.map(toOrder),
    nextCursor: more && last ? encodeCursor(cursorOf(last)) : null,
    total,
  };
}

/** Manage Orders: every order, filtered. */
export function listOrders(db: Db, query: OrderFilter & { cursor?: string; limit: number }) {
  return orderPage(db, filterCondition(query), query);
}

/** My Orders: the customer's own. */
export function listOrdersOf(db: Db, userId: string, query: { cursor?: string; limit: number }) {
  return orderPage(db, eq(orders.userId, userId), query);
}
