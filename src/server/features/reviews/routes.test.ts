import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { messages } from "../../../shared/messages.js";
import type { Review } from "../../../shared/reviews.js";
import { orders, reviews } from "../../db/schema/index.js";
import { demoReviews } from "../../db/seed/demo-catalog.js";
import { createTestApp, type TestContext } from "../../test/app.js";
import { ORIGIN, signUp, type TestUser } from "../../test/users.js";

let ctx: TestContext;
let reviewer: TestUser;
beforeAll(async () => {
  ctx = await createTestApp({}, { rateLimit: { max: 10_000, windowSeconds: 60 } });
  reviewer = await signUp(ctx.app, { name: "Riley Reviewer" });
});
afterAll(async () => {
  await ctx.close();
});

describe("GET /api/reviews", () => {
  it("lists every review, newest first", async () => {
    const res = await ctx.app.inject({ method: "GET", url: "/api/reviews" });
    expect(res.statusCode).toBe(200);
    const body: Review[] = res.json();
    expect(body).toHaveLength(demoReviews.length);
    const times = body.map((r) => Date.parse(r.createdAt));
    expect(times).toEqual([...times].sort((a, b) => b - a));
  });

  it("limits to the first n for the home page", async () => {
    const all: Review[] = (await ctx.app.inject({ method: "GET", url: "/api/reviews" })).json();
    const res = await ctx.app.inject({ method: "GET", url: "/api/reviews?limit=3" });
    expect(res.json()).toEqual(all.slice(0, 3));
  });

  it("refuses a bad limit", async () => {
    const res = await ctx.app.inject({ method: "GET", url: "/api/reviews?limit=-1" });
    expect(res.statusCode).toBe(400);
  });
});

describe("POST /api/reviews", () => {
  const post = (payload: unknown, cookie = reviewer.cookie) =>
    ctx.app.inject({
      method: "POST",
      url: "/api/reviews",
      headers: { cookie, origin: ORIGIN },
      payload: payload as object,
    });

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
      expect(res.json().errors).toContainEqual({ path: "rating", message: messages.review.ratingRange });
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
      createdAt: expect.any(String),
    });
    const [first] = (await ctx.app.inject({ url: "/api/reviews?limit=1" })).json();
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
      expect(res.json().errors).toContainEqual({ path: "comment", message: messages.review.commentRequired });
    }
    const long = await post({ comment: "x".repeat(1001), rating: 4 });
    expect(long.statusCode).toBe(400);
    expect(long.json().errors).toContainEqual({
      path: "comment",
      message: messages.review.commentTooLong(1000),
    });
    expect(await reviewCount()).toBe(before);
    expect((await post({ comment: "x".repeat(1000), rating: 4 })).statusCode).toBe(201);
  });

  it("marks the review of a customer with a paid order as verified", async () => {
    const buyer = await signUp(ctx.app, { name: "Bea Buyer" });
    await ctx.database.db.insert(orders).values({
      userId: buyer.id,
      productName: "Gale 120",
      img: "/media/products/gale-120-high-static-pressure-fan.svg",
      name: "Bea Buyer",
      email: buyer.email,
      address: "1 Loop Road",
      phone: "5550123",
      quantity: 10,
      unitPrice: 10,
      totalPrice: 100,
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
