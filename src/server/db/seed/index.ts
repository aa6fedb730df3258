import { sql } from "drizzle-orm";
import type { Db } from "../client.js";
import { products, reviews } from "../schema/index.js";
import { demoProducts, demoReviews } from "./demo-catalog.js";

/** Fills an empty catalog with the demo products and reviews; does nothing otherwise. */
export async function seedDemoCatalog(db: Db): Promise<boolean> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(products);
  if ((row?.n ?? 0) > 0) return false;
  await db.transaction(async (tx) => {
    const now = Date.now();
    await tx.insert(products).values(
      demoProducts.map((p, i) => ({
        name: p.name,
        description: p.description,
        image: p.image,
        price: p.price,
        quantity: p.quantity,
        category: p.category,
        // Distinct creation times keep "newest" sorting stable.
        createdAt: new Date(now - (demoProducts.length - i) * 60_000),
      })),
    );
    await tx.insert(reviews).values(
      demoReviews.map((r, i) => ({
        name: r.name,
        comment: r.comment,
        rating: r.rating,
        createdAt: new Date(now - (demoReviews.length - i) * 3_600_000),
      })),
    );
  });
  return true;
}
