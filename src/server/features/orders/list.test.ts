import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { orderNumber } from "../../../shared/format.js";
import { orderMessages } from "../../../shared/messages/orders.js";
import { pagingMessages } from "../../../shared/messages/paging.js";
import {
  ORDER_SEARCH_MIN_RUN,
  type Order,
  type OrderPage,
  type OrderStatus,
} from "../../../shared/orders.js";
import { MAX_LIST_PAGE_SIZE } from "../../../shared/paging.js";
import { orders } from "../../db/schema/index.js";
import { encodeCursor } from "../../lib/paging.js";
import { setUpTestApp } from "../../test/app.js";
import { insertOrder } from "../../test/orders.js";
import { ORIGIN, type TestUser } from "../../test/users.js";

/**
 * GET /api/orders and /api/orders/mine on small data: keyset pages, filters and search, and the
 * refusals. The plans at 1,000,000 orders are in docs/decisions/order-lists.md.
 */

type Seed = {
  user?: TestUser;
  name?: string;
  email?: string;
  product?: string;
  status?: OrderStatus;
  transactionId?: string | null;
  at: string;
  address?: string;
  phone?: string;
  img?: string;
};

/** Inserts an order as it would be stored, at a chosen time. */
async function seed(order: Seed): Promise<string> {
  const status = order.status ?? "pending";
  return insertOrder(ctx.database.db, {
    userId: order.user?.id ?? null,
    productName: order.product ?? "Gale 120 Fan",
    img: order.img ?? "/media/products/x.svg",
    name: order.name ?? "Carol Lister",
    email: order.email ?? order.user?.email ?? "carol.lister@example.com",
    address: order.address ?? "1 Loop Road, Austin",
    phone: order.phone ?? "5550123",
    status,
    transactionId:
      order.transactionId === undefined
        ? status === "pending"
          ? null
          : `pi_list_${randomUUID()}`
        : order.transactionId,
    createdAt: new Date(order.at),
  });
}

function get(url: string, user: TestUser | null = admin) {
  return ctx.app.inject({ url, headers: user ? { cookie: user.cookie } : {} });
}

async function page(url: string, user: TestUser | null = admin): Promise<OrderPage> {
  const res = await get(url, user);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

/** Every order of a list, page by page, with the cursors followed (from `start`, if given). */
async function walk(
  url: string,
  user: TestUser | null = admin,
  start: string | null = null,
): Promise<{ ids: string[]; pages: number }> {
  const ids: string[] = [];
  let cursor = start;
  let pages = 0;
  const join = url.includes("?") ? "&" : "?";
  do {
    const body: OrderPage = await page(
      cursor ? `${url}${join}cursor=${encodeURIComponent(cursor)}` : url,
      user,
    );
    ids.push(...body.items.map((o) => o.id));
    pages += 1;
    cursor = body.nextCursor;
  } while (cursor);
  return { ids, pages };
}

/** The orders of the whole table, newest first (the order every list uses), read directly. */
async function everyOrder() {
  const rows = await ctx.database.db.select().from(orders);
  return rows.sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1));
}

const SAME_MOMENT = "2025-03-01T12:00:00.000Z";

const ctx = setUpTestApp({}, { rateLimit: { max: 10_000, windowSeconds: 60 } });
const admin = ctx.signedUpAdmin({ email: "list.admin@example.com" });
const carol = ctx.signedUpUser({ name: "Carol Lister" });
const dave = ctx.signedUpUser({ name: "Dave Other" });
beforeAll(async () => {
  // 30 orders: five at one and the same moment (the id breaks the tie), the rest spread over days.
  for (let i = 0; i < 5; i++) await seed({ user: carol, at: SAME_MOMENT, status: "paid" });
  for (let i = 0; i < 25; i++)
    await seed({
      user: i % 3 === 0 ? dave : carol,
      name: i % 3 === 0 ? "Dave Other" : "Carol Lister",
      product: i % 2 ? "Vortex TKL Keyboard" : "Gale 120 Fan",
      status: (["pending", "paid", "shipped"] as const)[i % 3],
      at: new Date(Date.UTC(2025, 0, 1 + i * 3, 8)).toISOString(),
    });
});

describe("GET /api/orders: keyset pages", () => {
  it("walks every order exactly once, newest first, whatever the page size", async () => {
    const expected = (await everyOrder()).map((o) => o.id);
    for (const limit of [1, 2, 7, expected.length - 1, expected.length, expected.length + 1]) {
      const { ids, pages } = await walk(`/api/orders?limit=${limit}`);
      expect(ids, `limit ${limit}`).toEqual(expected);
      expect(pages, `limit ${limit}`).toBe(Math.max(1, Math.ceil(expected.length / limit)));
    }
  });

  it("says how many orders match, and gives no cursor after the last page", async () => {
    const total = (await everyOrder()).length;
    const first = await page("/api/orders?limit=10");
    expect(first.total).toEqual({ count: total, exact: true });
    expect(first.items).toHaveLength(10);
    expect(first.nextCursor).toEqual(expect.any(String));
    const all = await page(`/api/orders?limit=${total}`);
    expect(all.items).toHaveLength(total);
    expect(all.nextCursor).toBeNull();
  });

  it("neither loses nor repeats an order placed between two page requests", async () => {
    const first = await page("/api/orders?limit=5");
    // A new order (newest: before the first page) and one dated between two later pages.
    const newest = await seed({ user: carol, at: new Date().toISOString() });
    const older = await seed({ user: carol, at: "2025-02-10T00:00:00.000Z" });
    const rest = await walk("/api/orders?limit=5", admin, first.nextCursor);
    const seen = [...first.items.map((o) => o.id), ...rest.ids];
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).not.toContain(newest);
    expect(seen.filter((id) => id === older)).toHaveLength(1);
    // And the list as a whole now holds both, once each.
    expect((await walk("/api/orders?limit=4")).ids).toEqual((await everyOrder()).map((o) => o.id));
  });

  it("goes back with prevCursor to the very same pages, the first page saying it has none before it", async () => {
    const forward: OrderPage[] = [await page("/api/orders?limit=4")];
    for (let last = forward[0]; last?.nextCursor; last = forward.at(-1))
      forward.push(await page(`/api/orders?limit=4&cursor=${last.nextCursor}`));
    expect(forward.length).toBeGreaterThan(3);
    expect(forward[0]?.prevCursor).toBeNull();
    const backward: OrderPage[] = [forward.at(-1) as OrderPage];
    for (let first = backward[0]; first?.prevCursor; first = backward[0])
      backward.unshift(await page(`/api/orders?limit=4&before=${first.prevCursor}`));
    expect(backward.map((p) => p.items.map((o) => o.id))).toEqual(
      forward.map((p) => p.items.map((o) => o.id)),
    );
  });

  it("keeps its place among orders placed at the same moment", async () => {
    const tied = (await everyOrder()).filter((o) => o.createdAt.toISOString() === SAME_MOMENT);
    expect(tied.length).toBeGreaterThanOrEqual(5);
    const { ids } = await walk("/api/orders?limit=2&from=2025-03-01&to=2025-03-02");
    expect(ids).toEqual(tied.map((o) => o.id));
  });
});

describe("GET /api/orders: filters", () => {
  /** Every order the filter keeps, in list order, decided here rather than by the server. */
  async function expected(keep: (o: Awaited<ReturnType<typeof everyOrder>>[number]) => boolean) {
    return (await everyOrder()).filter(keep).map((o) => o.id);
  }

  it("filters by one status or several", async () => {
    expect((await walk("/api/orders?status=pending&limit=4")).ids).toEqual(
      await expected((o) => o.status === "pending"),
    );
    expect((await walk("/api/orders?status=paid,shipped&limit=4")).ids).toEqual(
      await expected((o) => o.status !== "pending"),
    );
    expect((await walk("/api/orders?status=pending,paid,shipped,paid")).ids).toEqual(
      await expected(() => true),
    );
  });

  it("filters by a date range: from inclusive, to exclusive, a date meaning its midnight UTC", async () => {
    const from = new Date("2025-01-10T08:00:00.000Z");
    const to = new Date("2025-02-03T00:00:00.000Z");
    expect((await walk(`/api/orders?from=${from.toISOString()}&to=2025-02-03&limit=3`)).ids).toEqual(
      await expected((o) => o.createdAt >= from && o.createdAt < to),
    );
    expect((await walk("/api/orders?from=2025-01-10T09:00:00%2B01:00")).ids).toEqual(
      await expected((o) => o.createdAt >= from),
    );
  });

  it("searches customers' emails and names and product names, case-insensitively", async () => {
    expect((await walk("/api/orders?search=DAVE%20oth&limit=3")).ids).toEqual(
      await expected((o) => o.name === "Dave Other"),
    );
    expect((await walk(`/api/orders?search=${encodeURIComponent(dave.email.slice(0, 12))}`)).ids).toEqual(
      await expected((o) => o.email === dave.email),
    );
    expect((await walk("/api/orders?search=tkl%20keyb")).ids).toEqual(
      await expected((o) => o.productName === "Vortex TKL Keyboard"),
    );
  });

  it("finds an order by its id or its transaction id, exactly", async () => {
    const [one] = (await everyOrder()).filter((o) => o.transactionId);
    if (!one?.transactionId) throw new Error("no paid order seeded");
    expect((await page(`/api/orders?search=${one.id.toUpperCase()}`)).items.map((o) => o.id)).toEqual([
      one.id,
    ]);
    expect((await page(`/api/orders?search=${one.transactionId}`)).items.map((o) => o.id)).toEqual([one.id]);
    expect((await page(`/api/orders?search=${randomUUID()}`)).items).toEqual([]);
  });

  it("finds an order by its number as the shop shows it, with or without its #", async () => {
    const [one] = await everyOrder();
    if (!one) throw new Error("no order seeded");
    const number = orderNumber(one.id);
    const found = (await page(`/api/orders?search=${encodeURIComponent(number)}`)).items.map((o) => o.id);
    expect(found).toEqual(await expected((o) => o.id.startsWith(one.id.slice(0, 8))));
    expect(found).toContain(one.id);
    const bare = (await page(`/api/orders?search=${number.slice(1).toLowerCase()}`)).items.map((o) => o.id);
    expect(bare).toContain(one.id);
    // A number no order has finds nothing.
    const unused = one.id.startsWith("0") ? "#FFFFFFFF" : "#00000000";
    expect((await page(`/api/orders?search=${encodeURIComponent(unused)}`)).items).toEqual([]);
  });

  it("takes % and _ in a search literally", async () => {
    const odd = await seed({ name: "Percy 100%_off", at: "2024-06-01T00:00:00.000Z" });
    expect((await page("/api/orders?search=100%25_off")).items.map((o) => o.id)).toEqual([odd]);
    expect((await page("/api/orders?search=Per%25off")).items).toEqual([]);
  });

  it("combines status, search and dates", async () => {
    const from = new Date("2025-01-01T00:00:00.000Z");
    const to = new Date("2025-03-01T12:00:00.000Z");
    const url = `/api/orders?status=pending,shipped&search=carol&from=2025-01-01&to=${to.toISOString()}&limit=2`;
    const ids = (await walk(url)).ids;
    expect(ids.length).toBeGreaterThan(0);
    expect(ids).toEqual(
      await expected(
        (o) =>
          o.status !== "paid" &&
          o.name.toLowerCase().includes("carol") &&
          o.createdAt >= from &&
          o.createdAt < to,
      ),
    );
    expect((await page(url)).total).toEqual({ count: ids.length, exact: true });
  });
});

describe("GET /api/orders: refusals", () => {
  const forged = [
    "not-a-cursor",
    Buffer.from('["yesterday","x"]').toString("base64url"),
    encodeCursor({ at: "2025-02-31T00:00:00.000000Z", id: randomUUID() }),
    encodeCursor({ at: "2025-01-01T00:00:00.000000Z", id: "not-an-id" }),
    encodeCursor({ at: "2025-01-01 00:00:00+99", id: randomUUID() }),
    encodeCursor({ at: "0000-01-01T00:00:00.000000Z", id: randomUUID() }),
  ];
  it.each(forged)("answers a forged cursor %s with a 400 problem", async (cursor) => {
    const res = await get(`/api/orders?cursor=${cursor}`);
    expect(res.statusCode).toBe(400);
    expect(res.headers["content-type"]).toMatch(/^application\/problem\+json/);
    expect(res.json().detail).toBe(pagingMessages.badCursor);
  });

  it.each([
    ["a page over the maximum", `limit=${MAX_LIST_PAGE_SIZE + 1}`],
    ["an empty page", "limit=0"],
    ["a page size that is no number", "limit=lots"],
    ["an unknown status", "status=lost"],
    ["an empty status in a list", "status=paid,"],
    ["a search of two letters", "search=ab"],
    ["a search with no three letters or digits in a row", "search=a-b.c"],
    ["a search with no letter from A to Z or digit", "search=%C3%9C%C3%B1%C3%B6"],
    [
      "a cursor and a before together",
      `cursor=${encodeCursor({ at: "2025-01-01 00:00:00+00", id: randomUUID() })}&before=${encodeCursor({ at: "2025-01-01 00:00:00+00", id: randomUUID() })}`,
    ],
    ["a search over 100 characters", `search=${"x".repeat(101)}`],
    ["a date that does not exist", "from=2025-02-30"],
    ["a time without its offset", "from=2025-02-01T10:00:00"],
    ["a range that ends before it starts", "from=2025-02-02&to=2025-02-01"],
  ])("refuses %s with a 400 problem", async (_, query) => {
    const res = await get(`/api/orders?${query}`);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.headers["content-type"]).toMatch(/^application\/problem\+json/);
  });

  it("says why a short search is refused", async () => {
    const res = await get("/api/orders?search=%20ab%20");
    expect(res.json().errors[0]).toMatchObject({
      path: "search",
      message: orderMessages.list.searchTooShort(ORDER_SEARCH_MIN_RUN),
    });
  });

  it("is for admins: 403 for a customer, 401 for a visitor", async () => {
    expect((await get("/api/orders", carol)).statusCode).toBe(403);
    expect((await get("/api/orders", null)).statusCode).toBe(401);
  });
});

describe("GET /api/orders/mine", () => {
  it("pages through the customer's own orders only", async () => {
    const own = (await everyOrder()).filter((o) => o.userId === dave.id).map((o) => o.id);
    expect(own.length).toBeGreaterThan(3);
    const { ids } = await walk("/api/orders/mine?limit=3", dave);
    expect(ids).toEqual(own);
    expect((await page("/api/orders/mine", dave)).total).toEqual({ count: own.length, exact: true });
  });

  it("refuses a forged cursor and a page over the maximum", async () => {
    expect((await get("/api/orders/mine?cursor=nope", dave)).statusCode).toBe(400);
    expect((await get(`/api/orders/mine?limit=${MAX_LIST_PAGE_SIZE + 1}`, dave)).statusCode).toBe(400);
  });

  it("takes no admin filters: a customer's search is no way into other orders", async () => {
    const res = await page("/api/orders/mine?search=carol&status=paid", dave);
    expect(res.items.every((o: Order) => o.email === dave.email)).toBe(true);
  });
});

describe("answer size", () => {
  it("keeps a full page of orders with every field at its longest under 200 KB", async () => {
    const long = (n: number) => "W".repeat(n);
    // The limits of sign-up (name 80, email 254, phone 20), products (name 120) and orders (address 300).
    for (let i = 0; i < MAX_LIST_PAGE_SIZE; i++)
      await seed({
        name: long(80),
        email: `${String(i).padStart(3, "0")}${long(239)}@example.com`,
        phone: long(20),
        product: long(120),
        address: long(300),
        img: `/api/images/${"a".repeat(64)}.webp`,
        status: "paid",
        at: "2030-01-01T00:00:00.000Z",
      });
    const res = await get(`/api/orders?limit=${MAX_LIST_PAGE_SIZE}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().items).toHaveLength(MAX_LIST_PAGE_SIZE);
    expect(Buffer.byteLength(res.body)).toBeLessThan(200 * 1024);
  });
});

describe("the filters change nothing", () => {
  it("leaves the orders as they were after refused and accepted requests alike", async () => {
    const before = await everyOrder();
    await get("/api/orders?status=lost");
    await get('/api/orders?search=\';drop table "order";--');
    await ctx.app.inject({
      method: "GET",
      url: "/api/orders",
      headers: { cookie: admin.cookie, origin: ORIGIN },
    });
    expect(await everyOrder()).toEqual(before);
  });
});
