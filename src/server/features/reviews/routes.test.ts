import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Review } from "../../../shared/reviews.js";
import { demoReviews } from "../../db/seed/demo-catalog.js";
import { createTestApp, type TestContext } from "../../test/app.js";

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
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
