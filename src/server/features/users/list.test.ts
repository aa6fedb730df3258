import { randomUUID } from "node:crypto";
import { like, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { pagingMessages } from "../../../shared/messages/paging.js";
import { EXACT_COUNT_LIMIT, MAX_LIST_PAGE_SIZE } from "../../../shared/paging.js";
import type { UserPage } from "../../../shared/users.js";
import { users } from "../../db/schema/index.js";
import { encodeCursor } from "../../lib/paging.js";
import { setUpTestApp } from "../../test/app.js";
import { forgedCursor } from "../../test/cursors.js";
import { signUp } from "../../test/users.js";

const ctx = setUpTestApp({}, { rateLimit: { max: 10_000, windowSeconds: 60 } });
const admin = ctx.signedUpAdmin({ name: "Lister Admin" });

const list = (query: string, cookie = admin.cookie) =>
  ctx.app.inject({ method: "GET", url: `/api/users?${query}`, headers: { cookie } });

async function page(query: string): Promise<UserPage> {
  const res = await list(query);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

type Seeded = { id: string; name: string; email: string; role: "user" | "admin"; createdAt: Date };

/**
 * Inserts users one minute apart, newest last (rows without sessions: sign-up hashes a password,
 * which is slow). `sameTimeAs` gives a row the time of an earlier one, so ties are broken by id.
 */
async function seed(
  tag: string,
  specs: ReadonlyArray<{ name: string; role?: "user" | "admin"; sameTimeAs?: number }>,
): Promise<Seeded[]> {
  const start = Date.parse("2024-03-01T10:00:00.123456Z");
  const rows: Seeded[] = specs.map((spec, i) => ({
    id: randomUUID(),
    name: spec.name,
    email: `${tag}.${i}.${randomUUID().slice(0, 8)}@example.com`,
    role: spec.role ?? "user",
    createdAt: new Date(start + (spec.sameTimeAs ?? i) * 60_000),
  }));
  await ctx.database.db.insert(users).values(rows);
  return rows;
}

/** The rows newest first, as the list orders them: by time, then by id. */
function newestFirst(rows: Seeded[]): string[] {
  return [...rows]
    .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1))
    .map((r) => r.id);
}

/** Follows nextCursor from the first page (or the one given) to the last, returning every page. */
async function walk(query: string, first?: UserPage): Promise<UserPage[]> {
  const pages = [first ?? (await page(query))];
  for (let last = pages[0]; last?.nextCursor; last = pages.at(-1)) {
    pages.push(await page(`${query}&cursor=${last.nextCursor}`));
    expect(pages.length).toBeLessThan(50);
  }
  return pages;
}

const ids = (p: UserPage) => p.items.map((u) => u.id);

describe("GET /api/users: pages", () => {
  it("walks every match exactly once, newest first, ties broken by id, to a last page without a cursor", async () => {
    const rows = await seed("walk", [
      { name: "Walker Quill" },
      { name: "Walker Quill" },
      { name: "Walker Quill", sameTimeAs: 1 },
      { name: "Walker Quill", sameTimeAs: 1 },
      { name: "Walker Quill" },
      { name: "Walker Quill" },
      { name: "Walker Quill", sameTimeAs: 5 },
    ]);
    const pages = await walk("search=walker+quill&limit=3");
    expect(pages.map((p) => p.items.length)).toEqual([3, 3, 1]);
    expect(pages.flatMap(ids)).toEqual(newestFirst(rows));
    expect(pages.every((p) => p.total.count === 7 && p.total.exact)).toBe(true);
    expect(pages.map((p) => p.prevCursor === null)).toEqual([true, false, false]);
    expect(pages.at(-1)?.nextCursor).toBeNull();
  });

  it("goes back with prevCursor to the same rows, and a step back to the top is the full first page", async () => {
    const rows = await seed(
      "back",
      Array.from({ length: 8 }, () => ({ name: "Backward Finch" })),
    );
    const [first, second, third] = await walk("search=backward+finch&limit=3");
    if (!first || !second?.prevCursor || !third?.prevCursor) throw new Error("expected three pages");
    const backToSecond = await page(`search=backward+finch&limit=3&before=${third.prevCursor}`);
    expect(ids(backToSecond)).toEqual(ids(second));
    expect(backToSecond.nextCursor).not.toBeNull();
    expect(backToSecond.prevCursor).not.toBeNull();

    const backToFirst = await page(`search=backward+finch&limit=3&before=${second.prevCursor}`);
    expect(ids(backToFirst)).toEqual(ids(first));
    expect(backToFirst.prevCursor).toBeNull();
    // One row newer than the first page's top: a step back from it is still a full first page.
    const [top] = newestFirst(rows);
    const topRow = rows.find((r) => r.id === top);
    if (!topRow) throw new Error("no top row");
    const fromTop = await page(
      `search=backward+finch&limit=3&before=${encodeCursor({ at: topRow.createdAt.toISOString(), id: topRow.id })}`,
    );
    expect(ids(fromTop)).toEqual(ids(first));
  });

  it("ends on a page exactly full with no next cursor", async () => {
    const rows = await seed(
      "full",
      Array.from({ length: 4 }, () => ({ name: "Exact Heron" })),
    );
    const whole = await page("search=exact+heron&limit=4");
    expect(ids(whole)).toEqual(newestFirst(rows));
    expect(whole.nextCursor).toBeNull();
    const [head, tail] = await walk("search=exact+heron&limit=3");
    expect(ids(tail as UserPage)).toEqual(newestFirst(rows).slice(3));
    expect(head?.nextCursor).not.toBeNull();
  });

  it("neither loses nor repeats a row when users sign up or leave between two requests", async () => {
    const rows = await seed(
      "moving",
      Array.from({ length: 6 }, () => ({ name: "Moving Wren" })),
    );
    const first = await page("search=moving+wren&limit=3");
    // A newer sign-up (it belongs above the first page) and an older row inside the next page's range.
    const [newer, older] = await seed("moving", [
      { name: "Moving Wren", sameTimeAs: 60 },
      { name: "Moving Wren", sameTimeAs: 0 },
    ]);
    const seen = (await walk("search=moving+wren&limit=3", first)).flatMap(ids);
    expect(new Set(seen).size).toBe(seen.length);
    if (!newer || !older) throw new Error("not seeded");
    expect(seen).toEqual(newestFirst([...rows, older]));
    expect(seen).not.toContain(newer.id);
    expect(ids(await page("search=moving+wren&limit=3"))[0]).toBe(newer.id);
  });

  it("uses the page size asked for, 25 by default, and refuses more than the maximum", async () => {
    await seed(
      "size",
      Array.from({ length: 30 }, () => ({ name: "Sizing Lark" })),
    );
    expect((await page("search=sizing+lark")).items).toHaveLength(25);
    expect((await page(`search=sizing+lark&limit=${MAX_LIST_PAGE_SIZE}`)).items).toHaveLength(30);
    for (const limit of [0, -1, MAX_LIST_PAGE_SIZE + 1, 2.5, "x"]) {
      const res = await list(`limit=${limit}`);
      expect(res.statusCode, String(limit)).toBe(400);
      expect(res.headers["content-type"]).toContain("application/problem+json");
    }
  });
});

describe("GET /api/users: search and role", () => {
  it("combines a search with a role, and with paging", async () => {
    const rows = await seed("combo", [
      { name: "Combo Osprey", role: "admin" },
      { name: "Combo Osprey" },
      { name: "Combo Osprey", role: "admin" },
      { name: "Other Person" },
      { name: "Combo Osprey", role: "admin" },
    ]);
    const admins = rows.filter((r) => r.role === "admin" && r.name === "Combo Osprey");
    const pages = await walk("search=combo+osprey&role=admin&limit=2");
    expect(pages.flatMap(ids)).toEqual(newestFirst(admins));
    expect(pages[0]?.total).toEqual({ count: 3, exact: true });
    const customers = await page("search=combo+osprey&role=user");
    expect(ids(customers)).toEqual([rows[1]?.id]);
    expect(customers.items[0]?.role).toBe("user");
  });

  it("finds three or more characters anywhere in the name or email, case aside", async () => {
    const [plover] = await seed("anywhere", [{ name: "Grey Plover" }]);
    if (!plover) throw new Error("not seeded");
    expect(ids(await page("search=LOVE"))).toContain(plover.id);
    const local = plover.email.split("@")[0] ?? "";
    expect(ids(await page(`search=${encodeURIComponent(local.slice(2, 12))}`))).toEqual([plover.id]);
  });

  it("finds one or two characters at the start of the name, of a word in it, or of the email", async () => {
    const [zq] = await seed("zq", [{ name: "Qx Zqwarbler" }]);
    const [other] = await seed("short", [{ name: "Ma Zqwarbler" }]);
    if (!zq || !other) throw new Error("not seeded");
    expect(ids(await page("search=qx&limit=100"))).toContain(zq.id);
    expect(ids(await page("search=zq&limit=100"))).toEqual(expect.arrayContaining([zq.id, other.id]));
    // Not inside a word: "wa" is in Zqwarbler, but starts nothing.
    const wa = ids(await page("search=wa&limit=100"));
    expect(wa).not.toContain(zq.id);
    expect(wa).not.toContain(other.id);
  });

  it("takes LIKE's wildcards literally", async () => {
    const [percent] = await seed("wild", [{ name: "Fifty%Off Crane" }]);
    await seed("wild", [{ name: "FiftyXOff Crane" }]);
    expect(ids(await page(`search=${encodeURIComponent("fifty%off")}`))).toEqual([percent?.id]);
    expect(ids(await page(`search=${encodeURIComponent("fifty_off")}`))).toEqual([]);
  });

  it("says nothing matches with an empty page", async () => {
    const none = await page("search=nobody-is-called-this");
    expect(none).toEqual({ items: [], nextCursor: null, prevCursor: null, total: { count: 0, exact: true } });
  });

  it(`counts exactly up to ${EXACT_COUNT_LIMIT.toLocaleString("en-US")}, then says "more than"`, async () => {
    const insertMany = (n: number, tag: string) =>
      ctx.database.db.execute(sql`
        insert into "user" (id, name, email)
        select gen_random_uuid()::text, 'Crowd Member', ${tag} || i || '@example.com'
        from generate_series(1, ${n}) as i`);
    await insertMany(EXACT_COUNT_LIMIT, "crowd.a.");
    expect((await page("search=crowd+member&limit=1")).total).toEqual({
      count: EXACT_COUNT_LIMIT,
      exact: true,
    });
    await insertMany(1, "crowd.b.");
    const over = await page("search=crowd+member&limit=1");
    expect(over.total).toEqual({ count: EXACT_COUNT_LIMIT, exact: false });
    await ctx.database.db.delete(users).where(like(users.email, "crowd.%"));
  });
});

describe("GET /api/users: refused queries change nothing", () => {
  const forged = [
    "not-a-cursor",
    forgedCursor([]),
    // Times PostgreSQL would not take (a 500 there), and ids no user has.
    ...["2026-02-31 10:00:00+00", "2026-01-01 24:00:00+00", "2026-01-01 10:00:00+16"].map((at) =>
      forgedCursor([at, "abc"]),
    ),
    ...["a\u0000b", "a b"].map((id) => forgedCursor(["2026-01-01 10:00:00+00", id])),
  ];

  it.each(forged)("answers a forged cursor %s with a 400 problem", async (cursor) => {
    const before = await ctx.database.db.select({ n: sql<number>`count(*)::int` }).from(users);
    for (const name of ["cursor", "before"]) {
      const res = await list(`${name}=${encodeURIComponent(cursor)}`);
      expect(res.statusCode).toBe(400);
      expect(res.headers["content-type"]).toContain("application/problem+json");
      expect(res.json()).toMatchObject({ status: 400, detail: pagingMessages.badCursor });
    }
    expect(await ctx.database.db.select({ n: sql<number>`count(*)::int` }).from(users)).toEqual(before);
  });

  it("refuses a cursor and a before together, a search without letters or digits, a long search, an unknown role", async () => {
    const first = await page("limit=1");
    const both = await list(`cursor=${first.nextCursor}&before=${first.nextCursor}`);
    expect(both.statusCode).toBe(400);
    expect(both.json().detail).toBe(pagingMessages.twoCursors);
    for (const query of ["search=...", "search=%25%25", `search=${"a".repeat(101)}`, "role=owner"]) {
      const res = await list(query);
      expect(res.statusCode, query).toBe(400);
      expect(res.headers["content-type"]).toContain("application/problem+json");
    }
    expect((await list("search=%20%20")).statusCode).toBe(200);
  });

  it("is for admins only", async () => {
    const customer = await signUp(ctx.app);
    expect((await list("search=a", customer.cookie)).statusCode).toBe(403);
    expect((await list("search=a", "")).statusCode).toBe(401);
  });
});
