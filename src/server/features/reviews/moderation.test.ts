import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { reviewMessages } from "../../../shared/messages/reviews.js";
import type {
  HiddenReviewPage,
  ModeratedReview,
  OwnReviewPage,
  Review,
  ReviewPage,
  ReviewReportPage,
} from "../../../shared/reviews.js";
import { activityLog, reviews } from "../../db/schema/index.js";
import { setUpTestApp } from "../../test/app.js";
import { fromShop, type TestUser } from "../../test/users.js";

const ctx = setUpTestApp({}, { rateLimit: { max: 10_000, windowSeconds: 60 } });
const admin = ctx.signedUpAdmin({ name: "Mona Moderator" });
const author = ctx.signedUpUser({ name: "Arlo Author" });
const reader = ctx.signedUpUser({ name: "Rae Reader" });
const m = reviewMessages.moderation;

const get = async <T>(who: TestUser | undefined, url: string): Promise<T> => {
  const res = await ctx.app.inject({ method: "GET", url, headers: who ? { cookie: who.cookie } : {} });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<T>();
};
const write = async (comment: string) => {
  const res = await fromShop(ctx.app, "POST", "/api/reviews", author.cookie, { comment, rating: 2 });
  expect(res.statusCode).toBe(201);
  return res.json<Review>();
};
const publicIds = async () =>
  (await get<ReviewPage>(undefined, "/api/reviews?limit=100")).items.map((r) => r.id);
const hide = (who: TestUser, id: string, reason: unknown) =>
  fromShop(ctx.app, "POST", `/api/reviews/${id}/hide`, who.cookie, { reason });
const restore = (who: TestUser, id: string) =>
  fromShop(ctx.app, "POST", `/api/reviews/${id}/restore`, who.cookie);
const report = (who: TestUser, id: string, reason: unknown) =>
  fromShop(ctx.app, "POST", `/api/reviews/${id}/reports`, who.cookie, { reason });
const entriesOf = (id: string) =>
  ctx.database.db
    .select()
    .from(activityLog)
    .where(and(eq(activityLog.targetType, "review"), eq(activityLog.targetId, id)))
    .orderBy(activityLog.id);

describe("review moderation", () => {
  it("hides a review from every public list, tells its author why, and restores it, on the record", async () => {
    const review = await write("Spam spam spam, buy my keyboards elsewhere");
    const before = await get<ReviewPage>(undefined, "/api/reviews?limit=100");
    expect(before.items.map((r) => r.id)).toContain(review.id);

    const hidden = await hide(admin, review.id, "  Advertising for another shop  ");
    expect(hidden.statusCode, hidden.body).toBe(200);
    expect(hidden.json<ModeratedReview>()).toMatchObject({
      id: review.id,
      hidden: { reason: "Advertising for another shop" },
      hiddenBy: admin.email,
    });
    const after = await get<ReviewPage>(undefined, "/api/reviews?limit=100");
    expect(after.items.map((r) => r.id)).not.toContain(review.id);
    expect(after.total.count).toBe(before.total.count - 1);
    // Hiding again changes nothing and records nothing.
    expect((await hide(admin, review.id, "Another reason")).json<ModeratedReview>().hidden?.reason).toBe(
      "Advertising for another shop",
    );

    const mine = await get<OwnReviewPage>(author, "/api/reviews/mine");
    expect(mine.items.find((r) => r.id === review.id)?.hidden?.reason).toBe("Advertising for another shop");
    expect((await get<OwnReviewPage>(reader, "/api/reviews/mine")).items).toEqual([]);
    const hiddenList = await get<HiddenReviewPage>(admin, "/api/admin/reviews/hidden");
    expect(hiddenList.items[0]).toMatchObject({ id: review.id, hiddenBy: admin.email });

    expect((await restore(admin, review.id)).json<ModeratedReview>().hidden).toBeNull();
    expect(await publicIds()).toContain(review.id);
    expect((await restore(admin, review.id)).statusCode).toBe(200);
    expect(
      (await get<OwnReviewPage>(author, "/api/reviews/mine")).items.find((r) => r.id === review.id)?.hidden,
    ).toBeNull();

    const entries = await entriesOf(review.id);
    expect(entries.map((e) => [e.action, e.actorEmail, e.changes])).toEqual([
      [
        "review.hidden",
        admin.email,
        { hidden: [false, true], reason: [null, "Advertising for another shop"] },
      ],
      [
        "review.restored",
        admin.email,
        { hidden: [true, false], reason: ["Advertising for another shop", null] },
      ],
    ]);
  });

  it("needs a reason, an admin, and a review that exists", async () => {
    const review = await write("A fair review of a fair mouse");
    expect(
      (await hide(admin, review.id, "   ")).json<{ errors: { message: string }[] }>().errors[0]?.message,
    ).toBe(m.reasonRequired);
    expect((await hide(admin, review.id, "x".repeat(501))).statusCode).toBe(400);
    expect((await hide(reader, review.id, "I do not like it")).statusCode).toBe(403);
    expect((await restore(reader, review.id)).statusCode).toBe(403);
    expect((await hide(admin, "00000000-0000-4000-8000-000000000000", "Gone")).statusCode).toBe(404);
    expect((await hide(admin, "not-a-review", "Gone")).statusCode).toBe(400);
    expect(await publicIds()).toContain(review.id);
    expect(await entriesOf(review.id)).toEqual([]);
  });

  it("takes a customer's report once, shows it to admins, and refuses a hidden review", async () => {
    const review = await write("Rude words about the staff");
    const first = await report(reader, review.id, "It insults the staff");
    expect(first.statusCode, first.body).toBe(201);
    expect((await report(reader, review.id, "Again")).statusCode).toBe(200);
    expect((await report(reader, review.id, "")).statusCode).toBe(400);

    const reports = await get<ReviewReportPage>(admin, "/api/admin/review-reports");
    const mine = reports.items.filter((r) => r.review.id === review.id);
    expect(mine.map((r) => [r.reason, r.reporterEmail, r.review.comment])).toEqual([
      ["It insults the staff", reader.email, "Rude words about the staff"],
    ]);
    const forbidden = await ctx.app.inject({
      method: "GET",
      url: "/api/admin/review-reports",
      headers: { cookie: reader.cookie },
    });
    expect(forbidden.statusCode).toBe(403);

    expect((await hide(admin, review.id, "Insults")).statusCode).toBe(200);
    expect((await report(author, review.id, "Hidden now")).statusCode).toBe(404);
    // The report is still listed, with its review now hidden.
    const later = await get<ReviewReportPage>(admin, "/api/admin/review-reports");
    expect(later.items.find((r) => r.review.id === review.id)?.review.hidden?.reason).toBe("Insults");
  });

  it("limits a customer's reports to 10 an hour", async () => {
    const ids: string[] = [];
    // Written straight into the table: an account may post only 5 reviews an hour.
    for (let i = 0; i < 11; i++) {
      const [row] = await ctx.database.db
        .insert(reviews)
        .values({ name: "Bulk Writer", comment: `Review ${i} to report`, rating: 3 })
        .returning({ id: reviews.id });
      ids.push(row?.id ?? "");
    }
    const answers: number[] = [];
    for (const id of ids.slice(0, 10))
      answers.push((await report(admin, id, "Checking the limit")).statusCode);
    expect(answers).toEqual(Array(10).fill(201));
    const refused = await report(admin, ids[10] ?? "", "One too many");
    expect(refused.statusCode).toBe(429);
    expect(refused.json<{ detail: string }>().detail).toMatch(/at most 10 reviews an hour/);
    expect(refused.headers["retry-after"]).toBeDefined();
  });
});
