import { and, desc, eq, exists, inArray, sql } from "drizzle-orm";
import { messages } from "../../../shared/messages.js";
import type { Review, ReviewInput } from "../../../shared/reviews.js";
import type { Db } from "../../db/client.js";
import { orders, reviews } from "../../db/schema/index.js";
import { enforceRateLimit } from "../../lib/rate-limit.js";
import type { SessionUser } from "../../plugins/auth.js";

/** Reviews with the "verified buyer" flag: the reviewer has a paid (or shipped) order. */
function selectReviews(db: Db) {
  const verified = sql<boolean>`${exists(
    db
      .select({ one: orders.id })
      .from(orders)
      .where(and(eq(orders.userId, reviews.userId), inArray(orders.status, ["paid", "shipped"]))),
  )}`;
  return db
    .select({
      id: reviews.id,
      name: reviews.name,
      comment: reviews.comment,
      rating: reviews.rating,
      staff: reviews.staff,
      createdAt: reviews.createdAt,
      verified,
    })
    .from(reviews)
    .$dynamic();
}

type ReviewRow = Omit<Review, "createdAt"> & { createdAt: Date };

function toReview(r: ReviewRow): Review {
  return { ...r, verified: Boolean(r.verified), createdAt: r.createdAt.toISOString() };
}

export async function listReviews(db: Db, limit?: number): Promise<Review[]> {
  const rows = await selectReviews(db)
    .orderBy(desc(reviews.createdAt), desc(reviews.id))
    .limit(limit ?? 100);
  return rows.map(toReview);
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
    messages.review.rateLimited(perHour, Math.ceil(retryAfterSeconds / 60));
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
  const [row] = await selectReviews(db).where(eq(reviews.id, created.id));
  if (!row) throw new Error("created review not found");
  return toReview(row);
}
