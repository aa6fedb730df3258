import { and, desc, eq, inArray, isNotNull, sql } from "drizzle-orm";
import type { z } from "zod";
import { reviewMessages } from "../../../shared/messages/reviews.js";
import type { cursorQuerySchema } from "../../../shared/paging.js";
import type {
  HiddenReviewPage,
  ModeratedReview,
  OwnReviewPage,
  ReviewReportPage,
} from "../../../shared/reviews.js";
import type { Db } from "../../db/client.js";
import { reviewReports, reviews, users } from "../../db/schema/index.js";
import { cursorAt, decodePosition, keysetPage } from "../../lib/keyset.js";
import { boundedCount, UUID_ID } from "../../lib/paging.js";
import { notFound } from "../../lib/problem.js";
import { enforceRateLimit } from "../../lib/rate-limit.js";
import { type Actor, recordActivity } from "../activity/index.js";
import { hiddenOf, onShow, type ReviewRow, reviewPage, selectReviews, toReview } from "./service.js";

/**
 * Review moderation (docs/product.md, "Review moderation"): an admin hides a review with a reason
 * and may restore it, each on the activity log; a customer reports a review (once, and at most
 * REPORTS_PER_HOUR an hour); admins read the reports and the hidden reviews; an author reads their
 * own reviews with the shop's reason where one is hidden.
 */

const m = reviewMessages.moderation;
/** A customer's reports an hour: enough for a bad evening on the Reviews page, not for a flood. */
const REPORTS_PER_HOUR = 10;
type PageQuery = z.output<typeof cursorQuerySchema>;

const moderated = (row: ReviewRow): ModeratedReview => ({
  ...toReview(row),
  hidden: hiddenOf(row),
  hiddenBy: row.hiddenBy,
});

/** The review, locked for the change; 404 when there is none. */
async function lockReview(tx: Db, id: string) {
  const [row] = await tx
    .select({ hiddenAt: reviews.hiddenAt, hiddenReason: reviews.hiddenReason })
    .from(reviews)
    .where(eq(reviews.id, id))
    .for("update");
  if (!row) throw notFound(m.notFound);
  return row;
}

async function readModerated(db: Db, id: string): Promise<ModeratedReview> {
  const [row] = await selectReviews(db, { where: eq(reviews.id, id), orderBy: () => [], take: 1 });
  if (!row) throw notFound(m.notFound);
  return moderated(row);
}

/** Hides the review with the admin's reason; hiding a hidden one changes nothing and records nothing. */
export async function hideReview(db: Db, actor: Actor, id: string, reason: string): Promise<ModeratedReview> {
  await db.transaction(async (tx) => {
    const row = await lockReview(tx, id);
    if (row.hiddenAt) return;
    await tx
      .update(reviews)
      .set({ hiddenAt: sql`now()`, hiddenBy: actor.email, hiddenReason: reason })
      .where(eq(reviews.id, id));
    await recordActivity(tx, actor, {
      action: "review.hidden",
      targetType: "review",
      targetId: id,
      changes: { hidden: [false, true], reason: [null, reason] },
    });
  });
  return readModerated(db, id);
}

/** Puts a hidden review on show again; restoring one on show changes nothing and records nothing. */
export async function restoreReview(db: Db, actor: Actor, id: string): Promise<ModeratedReview> {
  await db.transaction(async (tx) => {
    const row = await lockReview(tx, id);
    if (!row.hiddenAt) return;
    await tx
      .update(reviews)
      .set({ hiddenAt: null, hiddenBy: null, hiddenReason: null })
      .where(eq(reviews.id, id));
    await recordActivity(tx, actor, {
      action: "review.restored",
      targetType: "review",
      targetId: id,
      changes: { hidden: [true, false], reason: [row.hiddenReason, null] },
    });
  });
  return readModerated(db, id);
}

/**
 * A customer reports a review on show: once per customer and review (a second report changes
 * nothing), REPORTS_PER_HOUR an hour per account. Whether it was new: 201 or 200.
 */
export async function reportReview(db: Db, userId: string, id: string, reason: string): Promise<boolean> {
  const tooMany = (retryAfterSeconds: number) =>
    m.reportRateLimited(REPORTS_PER_HOUR, Math.ceil(retryAfterSeconds / 60));
  return db.transaction(async (tx) => {
    const [review] = await tx
      .select({ id: reviews.id })
      .from(reviews)
      .where(and(eq(reviews.id, id), onShow));
    if (!review) throw notFound(m.notFound);
    await enforceRateLimit(
      tx,
      `review-report:user:${userId}`,
      { max: REPORTS_PER_HOUR, windowSeconds: 3600 },
      tooMany,
    );
    const made = await tx
      .insert(reviewReports)
      .values({ reviewId: id, userId, reason })
      .onConflictDoNothing()
      .returning({ id: reviewReports.id });
    return made.length > 0;
  });
}

/** The author's own reviews, newest first, hidden ones with the shop's reason. */
export async function listOwnReviews(db: Db, userId: string, query: PageQuery): Promise<OwnReviewPage> {
  const page = await reviewPage(db, query, eq(reviews.userId, userId));
  return {
    items: page.rows.map((row) => ({ ...toReview(row), hidden: hiddenOf(row) })),
    nextCursor: page.nextCursor,
    total: page.total,
  };
}

/** The hidden reviews, last hidden first (review_hidden_idx). */
export async function listHiddenReviews(db: Db, query: PageQuery): Promise<HiddenReviewPage> {
  const key = { createdAt: reviews.hiddenAt, id: reviews.id };
  const page = await reviewPage(db, query, isNotNull(reviews.hiddenAt), key);
  return { items: page.rows.map(moderated), nextCursor: page.nextCursor, total: page.total };
}

/** Customers' reports, newest first (review_report_newest_idx), each with its review. */
export async function listReports(db: Db, query: PageQuery): Promise<ReviewReportPage> {
  const position = decodePosition(query, UUID_ID);
  const r = reviewReports;
  const page = await keysetPage(r, position, query.limit, (window, take) =>
    db
      .select({
        id: sql<string>`${r.id}::text`,
        at: r.createdAt,
        reason: r.reason,
        reviewId: r.reviewId,
        reporterEmail: users.email,
        cursorAt: cursorAt(r),
      })
      .from(r)
      .leftJoin(users, eq(users.id, r.userId))
      .where(window.where)
      .orderBy(...window.orderBy)
      .limit(take),
  );
  const [total, found] = await Promise.all([
    boundedCount(db, sql`from ${r}`),
    page.rows.length === 0
      ? []
      : selectReviews(db, {
          where: inArray(reviews.id, [...new Set(page.rows.map((row) => row.reviewId))]),
          orderBy: (key) => [desc(key.createdAt)],
          take: page.rows.length,
        }),
  ]);
  const byId = new Map(found.map((row) => [row.id, moderated(row)]));
  return {
    items: page.rows.flatMap((row) => {
      const review = byId.get(row.reviewId);
      return review
        ? [
            {
              id: row.id,
              at: row.at.toISOString(),
              reason: row.reason,
              reporterEmail: row.reporterEmail,
              review,
            },
          ]
        : [];
    }),
    nextCursor: page.nextCursor,
    total,
  };
}
