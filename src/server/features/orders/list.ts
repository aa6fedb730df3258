import { and, between, eq, getTableColumns, gte, inArray, lt, or, type SQL, sql } from "drizzle-orm";
import {
  isOrderId,
  ORDER_STATUSES,
  type OrderFilter,
  type OrderPage,
  orderNumberPrefix,
} from "../../../shared/orders.js";
import { EXACT_COUNT_LIMIT, ORDER_SEARCH_COUNT_LIMIT } from "../../../shared/paging.js";
import type { Db } from "../../db/client.js";
import { orders } from "../../db/schema/index.js";
import { countedPage, decodePosition } from "../../lib/keyset.js";
import { escapeLike } from "../../lib/like.js";
import { UUID_ID } from "../../lib/paging.js";
import { toOrder } from "./service.js";

/**
 * The order lists (Manage Orders, My Orders, the CSV export), newest first, read in keyset order
 * (created_at, id) so page 40,000 costs what page 1 does. Every query here is answered from an
 * index of migration order_lists (order_created_id_idx, order_status_created_id_idx,
 * order_user_created_id_idx, and pg_trgm GIN indexes for search); docs/decisions/order-lists.md
 * has their plans at 1,000,000 orders.
 */

/**
 * An order id matches exactly (the primary key), and an order's number ("#1A2B3C4D", the id's first
 * 8 digits, as My Orders and Manage Orders show it) matches the ids it begins, a range of the
 * primary key; other terms match a transaction id exactly, or are
 * found anywhere in the customer's email or name or the product name, case-insensitively: in the
 * order's lower-case search text, from its trigram index (the shared schema has refused terms that
 * index cannot look up). The term is lowered by the database's own lower(), as the column was.
 */
function searchCondition(term: string | undefined): SQL | undefined {
  if (!term) return undefined;
  if (isOrderId(term)) return eq(orders.id, term);
  const prefix = orderNumberPrefix(term);
  const numbered = prefix
    ? between(orders.id, `${prefix}-0000-0000-0000-000000000000`, `${prefix}-ffff-ffff-ffff-ffffffffffff`)
    : undefined;
  // With its "#", a number is nothing else; without, "deadbeef" may also be in a name.
  if (numbered && term.startsWith("#")) return numbered;
  return or(
    numbered,
    sql`${orders.searchText} like '%' || lower(${escapeLike(term)}) || '%'`,
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

type PageQuery = { cursor?: string; before?: string; limit: number };

/** What a list reads of an order: everything it answers, not the search text. */
const { searchText: _searchText, ...listed } = getTableColumns(orders);

/**
 * One page of the orders matching `where`, and how many match: exact up to `countLimit`, so the
 * count reads at most that many rows (countedPage). A search counts to ORDER_SEARCH_COUNT_LIMIT: each
 * row it counts is read from the table to confirm the match (a trigram index only narrows it down),
 * where other lists count entries of a btree index.
 */
async function orderPage(
  db: Db,
  where: SQL | undefined,
  query: PageQuery,
  countLimit = EXACT_COUNT_LIMIT,
): Promise<OrderPage> {
  const position = decodePosition(query, UUID_ID);
  const [page, total] = await countedPage(db, orders, listed, where, position, query.limit, countLimit);
  return {
    items: page.rows.map(toOrder),
    nextCursor: page.nextCursor,
    prevCursor: page.prevCursor,
    total,
  };
}

/** Manage Orders: every order, filtered. */
export function listOrders(db: Db, query: OrderFilter & PageQuery) {
  return orderPage(
    db,
    filterCondition(query),
    query,
    query.search ? ORDER_SEARCH_COUNT_LIMIT : EXACT_COUNT_LIMIT,
  );
}

/** My Orders: the customer's own. */
export function listOrdersOf(db: Db, userId: string, query: PageQuery) {
  return orderPage(db, eq(orders.userId, userId), query);
}
