import { and, desc, eq, exists, inArray, sql } from "drizzle-orm";
import type { Review } from "../../../shared/reviews.js";
import type { Db } from "../../db/client.js";
import { orders, reviews } from "../../db/schema/index.js";

export async function listReviews(db: Db, limit?: number): Promise<Review[]> {
  const verified = sql<boolean>`${exists(
    db
      .select({ one: orders.id })
      .from(orders)
      .where(and(eq(orders.userId, reviews.userId), inArray(orders.status, ["paid", "shipped"]))),
  )}`;
  const rows = await db
    .select({
      id: reviews.id,
      name: reviews.name,
      comment: reviews.comment,
      rating: reviews.rating,
      createdAt: reviews.createdAt,
      verified,
    })
    .from(reviews)
    .orderBy(desc(reviews.createdAt), desc(reviews.id))
    .limit(limit ?? 100);
  return rows.map((r) => ({ ...r, verified: Boolean(r.verified), createdAt: r.createdAt.toISOString() }));
}
