import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { reviewMessages } from "../../../shared/messages/reviews.js";
import type { ReviewPage } from "../../../shared/reviews.js";
import { setUpTestApp } from "../app.js";
import { ORIGIN, signUp, signUpAdmin } from "../users.js";

/**
 * Review flooding (README.md, Guarantees; ASVS V11.1.4, anti-automation): anyone signed in could
 * post any number of reviews and so hold the home page's three newest, under any name. Now one
 * account posts at most REVIEW_LIMIT_PER_HOUR (default 5) reviews an hour, however many it sends at
 * once, and a refused one changes no row; a review is marked staff only when an admin wrote it,
 * never by name or by body.
 */

// The default review limit; the sign-up limit out of the way (this file signs up many accounts).
const ctx = setUpTestApp({}, { rateLimit: { max: 10_000, windowSeconds: 60 } });

const review = (cookie: string, payload: object) =>
  ctx.app.inject({ method: "POST", url: "/api/reviews", headers: { cookie, origin: ORIGIN }, payload });
const listed = async (limit = 100) =>
  ((await ctx.app.inject({ url: `/api/reviews?limit=${limit}` })).json() as ReviewPage).items;
/** Every review and every rate-limit counter, to show that a refused review wrote nothing. */
const rows = async () =>
  JSON.stringify(
    await Promise.all([
      ctx.database.db.execute(sql`select * from review order by id`),
      ctx.database.db.execute(sql`select * from rate_limit order by key`),
    ]).then((results) => results.map((r) => r.rows)),
  );

describe("review flooding", () => {
  it("a burst of 12 reviews sent at once from one account stores 5; the others answer 429 and change nothing", async () => {
    const limit = ctx.config.reviewLimitPerHour;
    expect(limit).toBe(5);
    const flooder = await signUp(ctx.app, { name: "Flood Bot" });
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) => review(flooder.cookie, { comment: `Buy here ${i}`, rating: 5 })),
    );
    const statuses = answers.map((a) => a.statusCode).sort((a, b) => a - b);
    expect(statuses).toEqual([...Array(limit).fill(201), ...Array(12 - limit).fill(429)]);
    for (const refused of answers.filter((a) => a.statusCode === 429)) {
      expect(refused.headers["content-type"]).toContain("application/problem+json");
      const retryAfter = Number(refused.headers["retry-after"]);
      expect(retryAfter).toBeGreaterThan(0);
      expect(refused.json().detail).toBe(reviewMessages.rateLimited(limit, Math.ceil(retryAfter / 60)));
    }
    expect((await listed()).filter((r) => r.name === "Flood Bot")).toHaveLength(limit);

    const before = await rows();
    expect((await review(flooder.cookie, { comment: "One more", rating: 5 })).statusCode).toBe(429);
    expect(await rows()).toBe(before);

    // The flood is over: the next customer's review leads the home page's three.
    const customer = await signUp(ctx.app, { name: "Real Customer" });
    expect((await review(customer.cookie, { comment: "Honest words.", rating: 4 })).statusCode).toBe(201);
    expect((await listed(3))[0]).toMatchObject({ name: "Real Customer", comment: "Honest words." });
  });

  it("limits staff as well", async () => {
    const admin = await signUpAdmin(ctx.app, { name: "Busy Admin" });
    const statuses: number[] = [];
    for (let i = 0; i <= ctx.config.reviewLimitPerHour; i++)
      statuses.push((await review(admin.cookie, { comment: `Staff note ${i}`, rating: 5 })).statusCode);
    expect(statuses).toEqual([201, 201, 201, 201, 201, 429]);
  });
});

describe("the shop's voice", () => {
  it("only an admin's review is marked staff; no customer's, whatever the name or the body says", async () => {
    const admin = await signUpAdmin(ctx.app, { name: "Gearhouse Team" });
    const official = await review(admin.cookie, { comment: "Restock on Friday.", rating: 5 });
    expect(official.json()).toMatchObject({ name: "Gearhouse Team", staff: true });

    const posing: string[] = [];
    for (const name of ["Gearhouse", "Gearhouse Team", "Gearhouse Staff"]) {
      const customer = await signUp(ctx.app, { name });
      const res = await review(customer.cookie, {
        comment: "Official!",
        rating: 5,
        staff: true,
        role: "admin",
      });
      expect(res.statusCode).toBe(201);
      expect(res.json()).toMatchObject({ name, staff: false });
      posing.push(res.json().id);
    }
    const all = await listed();
    expect(all.filter((r) => posing.includes(r.id)).map((r) => r.staff)).toEqual([false, false, false]);
    expect(all.find((r) => r.id === official.json().id)?.staff).toBe(true);
  });
});
