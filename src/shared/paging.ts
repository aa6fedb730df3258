import { z } from "zod";

/**
 * Cursor paging for the shop's long lists (admin orders, users, reviews, My Orders): a page is
 * `limit` rows after `cursor`, the opaque position of the previous page's last row. Unlike an
 * offset, a cursor costs the same on page 1 and page 40,000, and a row inserted between two
 * requests is neither lost nor shown twice.
 */
export const LIST_PAGE_SIZE = 25;
export const MAX_LIST_PAGE_SIZE = 100;
/** Above this many matching rows a list says "more than" instead of counting them all. */
export const EXACT_COUNT_LIMIT = 10_000;
/**
 * A text search counts less far: every row it counts is read to confirm the match, where other
 * counts read only index entries, and a common name (3 % of a million orders) is counted in about a
 * millisecond from the first hundred rows that match (docs/decisions/order-lists.md).
 */
export const ORDER_SEARCH_COUNT_LIMIT = 100;
/** A cursor is a short opaque token; anything longer is refused before it is decoded. */
export const MAX_CURSOR_LENGTH = 200;

export const cursorQuerySchema = z.object({
  cursor: z.string().min(1).max(MAX_CURSOR_LENGTH).optional(),
  limit: z.coerce.number().int().min(1).max(MAX_LIST_PAGE_SIZE).optional().default(LIST_PAGE_SIZE),
});

/** A page after `cursor` (the next page) or before `before` (the previous one), never both. */
export const twoWayQuerySchema = cursorQuerySchema.extend({
  before: z.string().min(1).max(MAX_CURSOR_LENGTH).optional(),
});

/** How many rows match: exact up to a list's limit (EXACT_COUNT_LIMIT, ORDER_SEARCH_COUNT_LIMIT), otherwise "more than `count`". */
const listCountSchema = z.object({
  count: z.number().int().min(0),
  exact: z.boolean(),
});
export type ListCount = z.infer<typeof listCountSchema>;

/** One page: its rows, the cursor of the next page (null on the last), and the match count. */
export function cursorPageSchema<T extends z.ZodType>(item: T) {
  return z.object({
    items: z.array(item),
    nextCursor: z.string().nullable(),
    total: listCountSchema,
  });
}

/** A page of a list paged both ways; `prevCursor` leads to the page before it (null on the first). */
export function twoWayPageSchema<T extends z.ZodType>(item: T) {
  return cursorPageSchema(item).extend({ prevCursor: z.string().nullable() });
}
