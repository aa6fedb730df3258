import { and, eq, isNull, sql } from "drizzle-orm";
import type { z } from "zod";
import { MIN_ORDER_QUANTITY } from "../../../shared/constants.js";
import { stockNoticeMessages as m } from "../../../shared/messages/stock-notices.js";
import { problemCodes } from "../../../shared/problem-codes.js";
import {
  STOCK_NOTICE_DAYS,
  type StockNotice,
  type StockNoticePage,
  type stockNoticeListQuerySchema,
} from "../../../shared/stock-notices.js";
import type { Db } from "../../db/client.js";
import { products, stockNotices } from "../../db/schema/index.js";
import { countedPage, decodePosition } from "../../lib/keyset.js";
import { UUID_ID } from "../../lib/paging.js";
import { conflict, gone, notFound } from "../../lib/problem.js";

/** Open: not mailed yet and younger than STOCK_NOTICE_DAYS (the job removes older ones in its time). */
const open = and(
  isNull(stockNotices.notifiedAt),
  sql`${stockNotices.createdAt} > now() - make_interval(days => ${STOCK_NOTICE_DAYS})`,
);

const noticeColumns = {
  id: stockNotices.id,
  productId: stockNotices.productId,
  productName: sql<string>`(select name from ${products} p where p.id = ${stockNotices.productId})`,
  productImage: sql<string>`(select image from ${products} p where p.id = ${stockNotices.productId})`,
  quantity: sql<number>`(select quantity from ${products} p where p.id = ${stockNotices.productId})`,
  createdAt: sql<string>`to_char(${stockNotices.createdAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`,
  endsAt: sql<string>`to_char((${stockNotices.createdAt} + make_interval(days => ${STOCK_NOTICE_DAYS})) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`,
};

/**
 * Subscribes `userId` to `productId`, which must exist, be on sale (not archived: 410) and be
 * below the booking minimum; asking
 * again while subscribed answers the same subscription (its place in the queue kept). A
 * subscription older than STOCK_NOTICE_DAYS that the job has not removed yet starts afresh.
 */
export async function subscribe(db: Db, userId: string, productId: string): Promise<StockNotice> {
  const [product] = await db
    .select({ quantity: products.quantity, archivedAt: products.archivedAt })
    .from(products)
    .where(eq(products.id, productId));
  if (!product) throw notFound(m.productNotFound);
  // No longer sold (the product page answers the same 410): it will not be back.
  if (product.archivedAt) throw gone(m.productArchived, problemCodes.productArchived);
  if (product.quantity >= MIN_ORDER_QUANTITY) throw conflict(m.inStock);
  const [row] = await db
    .execute<{ id: string }>(sql`
    insert into ${stockNotices} (user_id, product_id) values (${userId}, ${productId})
    on conflict (user_id, product_id) where notified_at is null do update
      set created_at = case
        when ${stockNotices.createdAt} > now() - make_interval(days => ${STOCK_NOTICE_DAYS})
        then ${stockNotices.createdAt} else now() end
    returning id`)
    .then((r) => r.rows);
  if (!row) throw new Error("stock notice insert returned nothing");
  const [notice] = await db.select(noticeColumns).from(stockNotices).where(eq(stockNotices.id, row.id));
  if (!notice) throw new Error("stock notice vanished");
  return notice;
}

/** The customer's open subscriptions, newest first, a page at a time (one product's when asked). */
export async function listNotices(
  db: Db,
  userId: string,
  query: z.infer<typeof stockNoticeListQuerySchema>,
): Promise<StockNoticePage> {
  const filter = and(
    eq(stockNotices.userId, userId),
    open,
    query.productId ? eq(stockNotices.productId, query.productId) : undefined,
  );
  const [page, total] = await countedPage(
    db,
    stockNotices,
    noticeColumns,
    filter,
    decodePosition(query, UUID_ID),
    query.limit,
  );
  return {
    items: page.rows.map(({ cursorAt: _cursor, ...notice }) => notice),
    nextCursor: page.nextCursor,
    total,
  };
}

/** Cancels the customer's own open subscription; 404 when there is none by that id. */
export async function cancelNotice(db: Db, userId: string, id: string): Promise<void> {
  const removed = await db
    .delete(stockNotices)
    .where(and(eq(stockNotices.id, id), eq(stockNotices.userId, userId), isNull(stockNotices.notifiedAt)))
    .returning({ id: stockNotices.id });
  if (removed.length === 0) throw notFound(m.notFound);
}

/**
 * The mail's unsubscribe link (its token checked by the route): removes the subscription, open or
 * with its mail still queued (the outbox then drops the mail). Unsubscribing twice is no error.
 */
export async function unsubscribe(db: Db, id: string): Promise<void> {
  await db.delete(stockNotices).where(eq(stockNotices.id, id));
}
