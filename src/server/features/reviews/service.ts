import { and, eq, exists, inArray, type SQL, sql } from "drizzle-orm";
import type { z } from "zod";
import { reviewMessages } from "../../../shared/messages/reviews.js";
import type { Review, ReviewInput, ReviewPage, reviewListQuerySchema } from "../../../shared/reviews.js";
import type { Db } from "../../db/client.js";
import { orders, reviews } from "../../db/schema/index.js";
import { cursorAt, decodePosition, keysetPage, keysetWindow, type NewestFirstKey } from "../../lib/keyset.js";
import { boundedCount, UUID_ID } from "../../lib/paging.js";
import { enforceRateLimit } from "../../lib/rate-limit.js";
import type { SessionUser } from "../../plugins/session.js";

/**
 * Reviews with the "verified buyer" flag (the reviewer has a paid or shipped order), for the rows
 * `where` picks, in `orderBy`, at most `take`. The rows are chosen first and the flag looked up for
 * those alone (an index probe each): asked beside an ORDER BY over the whole table, PostgreSQL
 * plans the lookup as a hash of every paid order, which grows with the shop.
 */
export async function selectReviews(
  db: Db,
  {
    where,
    orderBy,
    take,
    key = reviews,
  }: {
    where?: SQL | undefined;
    orderBy: (key: NewestFirstKey) => SQL[];
    take: number;
    /** The sort key: newest written (the default), or last hidden (moderation). */
    key?: NewestFirstKey;
  },
) {
  const chosen = db
    .select({
      id: reviews.id,
      userId: reviews.userId,
      name: reviews.name,
      comment: reviews.comment,
      rating: reviews.rating,
      staff: reviews.staff,
      createdAt: reviews.createdAt,
      hiddenAt: reviews.hiddenAt,
      hiddenBy: reviews.hiddenBy,
      hiddenReason: reviews.hiddenReason,
      cursorAt: cursorAt(key).as("cursor_at"),
    })
    .from(reviews)
    .where(where)
    .orderBy(...orderBy(key))
    .limit(take)
    .as("chosen");
  const verified = sql<boolean>`${exists(
    db
      .select({ one: orders.id })
      .from(orders)
      .where(and(eq(orders.userId, chosen.userId), inArray(orders.status, ["paid", "shipped"]))),
  )}`;
  return db
    .select({
      id: chosen.id,
      name: chosen.name,
      comment: chosen.comment,
      rating: chosen.rating,
      staff: chosen.staff,
      createdAt: chosen.createdAt,
      hiddenAt: chosen.hiddenAt,
      hiddenBy: chosen.hiddenBy,
      hiddenReason: chosen.hiddenReason,
      cursorAt: chosen.cursorAt,
      verified,
    })
    .from(chosen)
    .orderBy(...orderBy({ createdAt: key === reviews ? chosen.createdAt : chosen.hiddenAt, id: chosen.id }));
}

export type ReviewRow = Omit<Review, "createdAt"> & {
  createdAt: Date;
  hiddenAt: Date | null;
  hiddenBy: string | null;
  hiddenReason: string | null;
  cursorAt: string;
};

export function toReview({
  cursorAt: _,
  hiddenAt: __,
  hiddenBy: ___,
  hiddenReason: ____,
  ...r
}: ReviewRow): Review {
  return { ...r, verified: Boolean(r.verified), createdAt: r.createdAt.toISOString() };
}

/** What hid a review: when and why (its author's view), null while on show. */
export const hiddenOf = (row: ReviewRow) =>
  row.hiddenAt && row.hiddenReason ? { at: row.hiddenAt.toISOString(), reason: row.hiddenReason } : null;

/** The reviews on show: a hidden one is in no public list (review_newest_idx covers these alone). */
export const onShow = sql`${reviews.hiddenAt} is null`;

/**
 * A page of the reviews `filter` picks, newest first by `key` (written, or last hidden) after the
 * query's cursor, and how many match (exact up to 10,000): the public list, an author's own and
 * the hidden ones are each this, with their own filter and index.
 */
export async function reviewPage(
  db: Db,
  query: z.output<typeof reviewListQuerySchema>,
  filter: SQL,
  key: NewestFirstKey = reviews,
) {
  const position = decodePosition(query, UUID_ID);
  const [page, total] = await Promise.all([
    keysetPage(key, position, query.limit, (window, take) =>
      selectReviews(db, {
        where: and(filter, window.where),
        orderBy: (k) => keysetWindow(k, position).orderBy,
        take,
        key,
      }),
    ),
    boundedCount(db, sql`from ${reviews} where ${filter}`),
  ]);
  return { rows: page.rows, nextCursor: page.nextCursor, total };
}

/** A page of the reviews on show, newest first, after the query's cursor. */
export async function listReviews(
  db: Db,
  query: z.output<typeof reviewListQuerySchema>,
): Promise<ReviewPage> {
  const page = await reviewPage(db, query, onShow);
  return { items: page.rows.map(toReview), nextCursor: page.nextCursor, total: page.total };
}

/**
 * Stores the review as written (the client shows it as text), under the signed-in user's name and
 * marked staff when the user is an admin now. At most `perHour` an hour per account, staff too:
 * the count and the review commit together, so a refused or failed review counts for nothing.
 */
export async function createReview(
  db: Db,
  user: SessionUser,
  input: Required<ReviewInput>,
  perHour: number,
): Promise<Review> {
  const limit = { max: perHour, windowSeconds: 60 * 60 };
  const tooMany = (retryAfterSeconds: number) =>
    reviewMessages.rateLimited(perHour, Math.ceil(retryAfterSeconds / 60));
  const created = await db.transaction(async (tx) => {
    await enforceRateLimit(tx, `review:user:${user.id}`, limit, tooMany);
    const [row] = await tx
      .insert(reviews)
      .values({
        userId: user.id,
        name: user.name,
        comment: input.comment,
        rating: input.rating,
        staff: user.role === "admin",
      })
      .returning({ id: reviews.id });
    return row;
  });
  if (!created) throw new Error("review insert returned nothing");
  const [row] = await selectReviews(db, {
    where: eq(reviews.id, created.id),
    orderBy: () => [],
    take: 1,
  });
  if (!row) throw new Error("created review not found");
  return toReview(row);
}
