import { desc, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { pagingMessages } from "../../../shared/messages/paging.js";
import { reviewMessages } from "../../../shared/messages/reviews.js";
import { LIST_PAGE_SIZE, MAX_LIST_PAGE_SIZE } from "../../../shared/paging.js";
import type { Review, ReviewPage } from "../../../shared/reviews.js";
import { reviews, users } from "../../db/schema/index.js";
import { demoReviews } from "../../db/seed/demo-catalog.js";
import { setUpTestApp } from "../../test/app.js";
import { forgedCursor } from "../../test/cursors.js";
import { insertOrder } from "../../test/orders.js";
import { fromShop, ORIGIN, signUp, signUpAdmin, type TestUser } from "../../test/users.js";

const ctx = setUpTestApp({}, { rateLimit: { max: 10_000, windowSeconds: 60 } });
const reviewer = ctx.signedUpUser({ name: "Riley Reviewer" });

const getPage = async (query = ""): Promise<ReviewPage> => {
  const res = await ctx.app.inject({ method: "GET", url: `/api/reviews${query}` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};

/** Every review, following nextCursor from the first page to the last. */
async function walk(limit: number, first?: ReviewPage): Promise<ReviewPage[]> {
  const pages = [first ?? (await getPage(`?limit=${limit}`))];
  for (let last = pages[0]; last?.nextCursor; last = pages.at(-1)) {
    pages.push(await getPage(`?limit=${limit}&cursor=${last.nextCursor}`));
    expect(pages.length).toBeLessThan(100);
  }
  return pages;
}

async function allReviewIds(): Promise<string[]> {
  const rows = await ctx.database.db
    .select({ id: reviews.id })
    .from(reviews)
    .orderBy(desc(reviews.createdAt), desc(reviews.id));
  return rows.map((r) => r.id);
}

describe("GET /api/reviews", () => {
  it("serves the newest reviews first, a page at a time, every one exactly once", async () => {
    const first = await getPage();
    expect(first.items).toHaveLength(Math.min(LIST_PAGE_SIZE, demoReviews.length));
    const pages = await walk(4);
    const seen = pages.flatMap((p) => p.items.map((r) => r.id));
    expect(seen).toEqual(await allReviewIds());
    expect(pages.at(-1)?.nextCursor).toBeNull();
    expect(pages.every((p) => p.items.length <= 4)).toBe(true);
    const times = pages.flatMap((p) => p.items.map((r) => Date.parse(r.createdAt)));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(first.total).toEqual({ count: seen.length, exact: true });
  });

  it("gives the home page its first three", async () => {
    const all = await getPage(`?limit=${MAX_LIST_PAGE_SIZE}`);
    const home = await getPage("?limit=3");
    expect(home.items).toEqual(all.items.slice(0, 3));
  });

  it("neither loses nor repeats a review posted between two pages", async () => {
    const before = await allReviewIds();
    const first = await getPage("?limit=2");
    const [posted] = await ctx.database.db
      .insert(reviews)
      .values({ name: "Late Writer", comment: "Posted while you read.", rating: 4 })
      .returning({ id: reviews.id });
    const seen = (await walk(2, first)).flatMap((p) => p.items.map((r) => r.id));
    expect(seen).toEqual(before);
    expect((await getPage("?limit=1")).items[0]?.id).toBe(posted?.id);
  });

  it.each(["?limit=-1", "?limit=0", `?limit=${MAX_LIST_PAGE_SIZE + 1}`, "?limit=two"])(
    "refuses the page size %s",
    async (query) => {
      const res = await ctx.app.inject({ method: "GET", url: `/api/reviews${query}` });
      expect(res.statusCode).toBe(400);
      expect(res.headers["content-type"]).toContain("application/problem+json");
    },
  );

  it.each([
    "garbage",
    forgedCursor(["2026-11-23 22:04:05+00", "not-a-uuid"]),
    forgedCursor(["2026-02-30 22:04:05+00", "3f1c2b8e-1d2a-4c5b-9e6f-7a8b9c0d1e2f"]),
  ])("answers a forged cursor %s with a 400 problem", async (cursor) => {
    const res = await ctx.app.inject({ method: "GET", url: `/api/reviews?cursor=${cursor}` });
    expect(res.statusCode).toBe(400);
    expect(res.headers["content-type"]).toContain("application/problem+json");
    expect(res.json().detail).toBe(pagingMessages.badCursor);
  });
});

describe("POST /api/reviews", () => {
  const post = (payload: unknown, cookie = reviewer.cookie) =>
    fromShop(ctx.app, "POST", "/api/reviews", cookie, payload);

  async function reviewCount(): Promise<number> {
    const [row] = await ctx.database.db.select({ n: sql<number>`count(*)::int` }).from(reviews);
    return row?.n ?? -1;
  }

  it.each([-1, 6, 2.5, "5", null, undefined])(
    "refuses the rating %o with the spec's message, storing nothing",
    async (rating) => {
      const before = await reviewCount();
      const res = await post({ comment: "Solid board.", rating });
      expect(res.statusCode).toBe(400);
      expect(res.json().errors).toContainEqual({ path: "rating", message: reviewMessages.ratingRange });
      expect(await reviewCount()).toBe(before);
    },
  );

  it.each([0, 5])("accepts the rating %i", async (rating) => {
    const res = await post({ comment: "Does the job.", rating });
    expect(res.statusCode).toBe(201);
    expect(res.json().rating).toBe(rating);
  });

  it("takes the name from the session, whatever the body says, and lists the review first", async () => {
    const res = await post({
      comment: "  Great fans, quiet at 60%.  ",
      rating: 4,
      name: "Mallory",
      verified: true,
    });
    expect(res.statusCode).toBe(201);
    const review: Review = res.json();
    expect(review).toEqual({
      id: expect.any(String),
      name: "Riley Reviewer",
      comment: "Great fans, quiet at 60%.",
      rating: 4,
      verified: false,
      staff: false,
      createdAt: expect.any(String),
    });
    const [first] = (await getPage("?limit=1")).items;
    expect(first).toEqual(review);
  });

  it("stores markup as plain text, exactly as written", async () => {
    const comment = '<img src=x onerror="alert(1)"> <b>bold</b> & more';
    const res = await post({ comment, rating: 3 });
    expect(res.json().comment).toBe(comment);
  });

  it("requires a comment of at most 1000 characters", async () => {
    const before = await reviewCount();
    for (const comment of ["", "   ", undefined]) {
      const res = await post({ comment, rating: 4 });
      expect(res.statusCode).toBe(400);
      expect(res.json().errors).toContainEqual({ path: "comment", message: reviewMessages.commentRequired });
    }
    const long = await post({ comment: "x".repeat(1001), rating: 4 });
    expect(long.statusCode).toBe(400);
    expect(long.json().errors).toContainEqual({
      path: "comment",
      message: reviewMessages.commentTooLong(1000),
    });
    expect(await reviewCount()).toBe(before);
    expect((await post({ comment: "x".repeat(1000), rating: 4 })).statusCode).toBe(201);
  });

  it("marks the review of a customer with a paid order as verified", async () => {
    const buyer = await signUp(ctx.app, { name: "Bea Buyer" });
    await insertOrder(ctx.database.db, {
      userId: buyer.id,
      name: "Bea Buyer",
      email: buyer.email,
      status: "paid",
      transactionId: `pi_${Math.random()}`,
    });
    const res = await post({ comment: "Arrived fast.", rating: 5 }, buyer.cookie);
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ name: "Bea Buyer", verified: true });
  });

  it("answers 401 to a visitor, storing nothing", async () => {
    const before = await reviewCount();
    expect((await post({ comment: "Hi", rating: 4 }, "")).statusCode).toBe(401);
    expect(await reviewCount()).toBe(before);
  });
});

describe("POST /api/reviews: the limit per account", () => {
  const post = (cookie: string, comment: string) =>
    ctx.app.inject({
      method: "POST",
      url: "/api/reviews",
      headers: { cookie, origin: ORIGIN },
      payload: { comment, rating: 5 },
    });
  const countOf = async (userId: string) => {
    const [row] = await ctx.database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(reviews)
      .where(eq(reviews.userId, userId));
    return row?.n ?? -1;
  };

  it("takes 5 reviews an hour from one account, then answers 429 with Retry-After and stores nothing", async () => {
    expect(ctx.config.reviewLimitPerHour).toBe(5);
    const eager = await signUp(ctx.app, { name: "Eli Eager" });
    for (let i = 1; i <= 5; i++) expect((await post(eager.cookie, `Review ${i}`)).statusCode).toBe(201);

    const res = await post(eager.cookie, "Review 6");
    expect(res.statusCode).toBe(429);
    expect(res.headers["content-type"]).toContain("application/problem+json");
    const retryAfter = Number(res.headers["retry-after"]);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    expect(res.json()).toMatchObject({
      status: 429,
      title: "Too Many Requests",
      detail: reviewMessages.rateLimited(5, Math.ceil(retryAfter / 60)),
    });
    expect(res.json().detail).toContain("at most 5 reviews an hour");
    expect(await countOf(eager.id)).toBe(5);

    // Another account is not limited by this one's reviews.
    const other = await signUp(ctx.app, { name: "Olive Other" });
    expect((await post(other.cookie, "My first review")).statusCode).toBe(201);
    expect((await post(eager.cookie, "Review 7")).statusCode).toBe(429);

    // Once the hour has passed, the account may post again.
    await ctx.database.db.execute(
      sql`update rate_limit set window_start = now() - interval '3601 seconds' where key like ${`%${eager.id}`}`,
    );
    expect((await post(eager.cookie, "An hour later")).statusCode).toBe(201);
    expect(await countOf(eager.id)).toBe(6);
  });
});

describe("POST /api/reviews: the Staff mark", () => {
  const setRole = (id: string, role: "admin" | "user") =>
    ctx.database.db.update(users).set({ role }).where(eq(users.id, id));
  const write = async (who: TestUser, comment: string): Promise<Review> => {
    const res = await ctx.app.inject({
      method: "POST",
      url: "/api/reviews",
      headers: { cookie: who.cookie, origin: ORIGIN },
      payload: { comment, rating: 5 },
    });
    expect(res.statusCode).toBe(201);
    return res.json();
  };
  const listed = async (id: string): Promise<Review | undefined> =>
    (await getPage(`?limit=${MAX_LIST_PAGE_SIZE}`)).items.find((r) => r.id === id);

  it("marks an admin's review staff, and no customer's, whatever the customer's name", async () => {
    const admin = await signUpAdmin(ctx.app, { name: "Sam Shopkeeper" });
    const staffReview = await write(admin, "New fans in stock next week.");
    expect(staffReview).toMatchObject({ name: "Sam Shopkeeper", staff: true });
    expect(await listed(staffReview.id)).toMatchObject({ staff: true });

    for (const name of ["Gearhouse", "Sam Shopkeeper", "Casey Customer"]) {
      const customer = await signUp(ctx.app, { name });
      const review = await write(customer, `Signed ${name}.`);
      expect(review).toMatchObject({ name, staff: false });
      expect(await listed(review.id)).toMatchObject({ name, staff: false });
    }
  });

  it("keeps the role the account had when writing: a later promotion or demotion relabels nothing", async () => {
    const riser = await signUp(ctx.app, { name: "Rory Riser" });
    const before = await write(riser, "Written as a customer.");
    await setRole(riser.id, "admin");
    const after = await write(riser, "Written as staff.");
    await setRole(riser.id, "user");
    expect(await listed(before.id)).toMatchObject({ staff: false });
    expect(await listed(after.id)).toMatchObject({ staff: true });
    expect((await write(riser, "A customer again.")).staff).toBe(false);
  });
});
