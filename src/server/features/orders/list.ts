import { and, eq, getTableColumns, gte, ilike, inArray, lt, or, type SQL } from "drizzle-orm";
import { isOrderId, ORDER_STATUSES, type OrderFilter, type OrderPage } from "../../../shared/orders.js";
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
 * An order id matches exactly (the primary key); other terms match a transaction id exactly, or are
 * found anywhere in the customer's email or name or the product name, case-insensitively, from their
 * trigram indexes (the shared schema has refused terms those indexes cannot look up).
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

type PageQuery = { cursor?: string; before?: string; limit: number };

/**
 * One page of the orders matching `where`, and how many match: exact up to EXACT_COUNT_LIMIT, so
 * the count reads at most that many rows (countedPage).
 */
async function orderPage(db: Db, where: SQL | undefined, query: PageQuery): Promise<OrderPage> {
  const position = decodePosition(query, UUID_ID);
  const [page, total] = await countedPage(db, orders, getTableColumns(orders), where, position, query.limit);
  return {
    items: page.rows.map(toOrder),
    nextCursor: page.nextCursor,
    prevCursor: page.prevCursor,
    total,
  };
}

/** Manage Orders: every order, filtered. */
export function listOrders(db: Db, query: OrderFilter & PageQuery) {
  return orderPage(db, filterCondition(query), query);
}

/** My Orders: the customer's own. */
export function listOrdersOf(db: Db, userId: string, query: PageQuery) {
  return orderPage(db, eq(orders.userId, userId), query);
}
