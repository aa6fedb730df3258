import { describe, expect, it } from "vitest";
import type { ActivityPage } from "../../../shared/activity.js";
import { activityMessages } from "../../../shared/messages/activity.js";
import { pagingMessages } from "../../../shared/messages/paging.js";
import { setUpTestApp } from "../../test/app.js";
import { stockedProduct } from "../../test/products.js";
import type { TestUser } from "../../test/users.js";

const ctx = setUpTestApp({}, { rateLimit: { max: 10_000, windowSeconds: 60 } });
const admin = ctx.signedUpAdmin({ name: "Ada Activity" });
const other = ctx.signedUpAdmin({ name: "Otto Activity" });
const customer = ctx.signedUpUser({ name: "Carla Activity" });

const get = (who: TestUser | undefined, url: string, headers: Record<string, string> = {}) =>
  ctx.app.inject({ method: "GET", url, headers: { ...headers, ...(who ? { cookie: who.cookie } : {}) } });
const page = async (url: string) => {
  const res = await get(admin, url);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<ActivityPage>();
};
const adjust = (who: TestUser, id: string, units: number, headers: Record<string, string> = {}) =>
  ctx.app.inject({
    method: "POST",
    url: `/api/products/${id}/stock/adjustments`,
    headers: { origin: "http://localhost:3000", cookie: who.cookie, ...headers },
    payload: { mode: "add", units, note: `Activity test +${units}` },
  });

describe("GET /api/admin/activity", () => {
  it("lists what admins did, newest first, with the target's name, a page at a time", async () => {
    const id = await stockedProduct(ctx.database.db, 10);
    for (const units of [1, 2, 3, 4, 5]) expect((await adjust(admin, id, units)).statusCode).toBe(200);
    const url = `/api/admin/activity?targetType=product&targetId=${id}&limit=2`;
    const first = await page(url);
    expect(first.total).toEqual({ count: 5, exact: true });
    expect(first.items.map((e) => e.changes.quantity)).toEqual([
      [20, 25],
      [16, 20],
    ]);
    expect(first.items[0]).toMatchObject({
      action: "stock.adjusted",
      actorEmail: admin.email,
      targetType: "product",
      targetId: id,
      address: "127.0.0.1",
    });
    expect(first.items[0]?.targetName).toMatch(/.+/);
    const seen = [...first.items];
    let cursor = first.nextCursor;
    while (cursor) {
      const next = await page(`${url}&cursor=${cursor}`);
      seen.push(...next.items);
      cursor = next.nextCursor;
    }
    expect(seen.map((e) => e.changes.quantity?.[1])).toEqual([25, 20, 16, 13, 11]);
    expect(new Set(seen.map((e) => e.id)).size).toBe(5);
  });

  it("filters by actor, action and date range", async () => {
    const id = await stockedProduct(ctx.database.db, 10);
    expect((await adjust(other, id, 7)).statusCode).toBe(200);
    expect((await adjust(admin, id, 8)).statusCode).toBe(200);
    const byOther = await page(`/api/admin/activity?actor=${encodeURIComponent(other.email.toUpperCase())}`);
    expect(byOther.items.map((e) => [e.actorEmail, e.changes.quantity?.[1]])).toEqual([[other.email, 17]]);
    const adjusted = await page(
      `/api/admin/activity?action=stock.adjusted&targetType=product&targetId=${id}`,
    );
    expect(adjusted.items).toHaveLength(2);
    const [newest] = adjusted.items;
    const at = new Date(newest?.at ?? 0);
    const sinceNewest = await page(
      `/api/admin/activity?targetType=product&targetId=${id}&from=${encodeURIComponent(at.toISOString())}`,
    );
    expect(sinceNewest.items.map((e) => e.id)).toEqual([newest?.id]);
    const before = await page(
      `/api/admin/activity?targetType=product&targetId=${id}&to=${encodeURIComponent(at.toISOString())}`,
    );
    expect(before.items.map((e) => e.actorEmail)).toEqual([other.email]);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    expect((await page(`/api/admin/activity?from=${tomorrow}`)).items).toEqual([]);
    expect((await page("/api/admin/activity?action=backup.run")).total).toEqual({ count: 0, exact: true });
  });

  it("refuses a bad filter or a forged cursor with a problem, and admins only", async () => {
    const cases: [string, string][] = [
      ["cursor=bm90IGEgY3Vyc29y", pagingMessages.badCursor],
      [
        `cursor=${Buffer.from(JSON.stringify(["2026-01-01 00:00:00+00", "abc"])).toString("base64url")}`,
        pagingMessages.badCursor,
      ],
      ["targetId=abc", activityMessages.targetIdNeedsType],
      ["actor=not-an-email", activityMessages.actorInvalid],
      ["targetType=product&targetId=a%27b", activityMessages.targetIdInvalid],
      ["from=2026-02-01&to=2026-01-01", "The end of the date range must come after its start."],
    ];
    for (const [query, detail] of cases) {
      const res = await get(admin, `/api/admin/activity?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.headers["content-type"]).toMatch(/application\/problem\+json/);
      expect(res.body, query).toContain(detail);
    }
    expect((await get(admin, "/api/admin/activity?action=order.eaten")).statusCode).toBe(400);
    expect((await get(customer, "/api/admin/activity")).statusCode).toBe(403);
    expect((await get(undefined, "/api/admin/activity")).statusCode).toBe(401);
    expect((await get(customer, "/api/admin/activity.csv")).statusCode).toBe(403);
  });
});

describe("GET /api/admin/activity.csv", () => {
  it("downloads the matching entries, formula-safe, newest first", async () => {
    const id = await stockedProduct(ctx.database.db, 10);
    expect((await adjust(admin, id, 2, { "user-agent": '=HYPERLINK("http://evil")' })).statusCode).toBe(200);
    expect((await adjust(admin, id, 3)).statusCode).toBe(200);
    const res = await get(admin, `/api/admin/activity.csv?targetType=product&targetId=${id}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(res.headers["content-disposition"]).toMatch(
      /^attachment; filename="gearhouse-activity-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    const lines = res.body
      .replace(/^\uFEFF/, "")
      .trimEnd()
      .split("\r\n");
    expect(lines[0]).toBe(`"${Object.values(activityMessages.csv).join('","')}"`);
    expect(lines).toHaveLength(3);
    expect(lines[1]).toContain(
      `"${admin.email}","${activityMessages.actions["stock.adjusted"]}","product","${id}"`,
    );
    expect(lines[2]).toContain(`"'=HYPERLINK(""http://evil"")"`);
    expect(
      (await get(admin, "/api/admin/activity.csv?to=2000-01-01")).body.trim().split("\r\n"),
    ).toHaveLength(1);
  });
});
