import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type {
  DiscountCode,
  DiscountCodeDetail,
  DiscountCodePage,
  TaxSettings,
} from "../../../shared/discounts.js";
import { discountMessages as m } from "../../../shared/messages/discounts.js";
import type { Order } from "../../../shared/orders.js";
import { problemCodes } from "../../../shared/problem-codes.js";
import { activityLog, discountCodes, orders, sessions, shopSettings } from "../../db/schema/index.js";
import { setUpTestApp } from "../../test/app.js";
import { insertProduct } from "../../test/products.js";
import { enrolApp } from "../../test/totp.js";
import { fromShop, ORIGIN, signUpAdmin, type TestUser } from "../../test/users.js";

const ctx = setUpTestApp(
  { ORDER_MAX_UNPAID: "1000", BOOKING_LIMIT_PER_HOUR: "100000", BOOKING_LIMIT_PER_ADDRESS_PER_HOUR: "0" },
  { rateLimit: { max: 100_000, windowSeconds: 60 } },
);
const admin = ctx.signedUpAdmin({ name: "Dana Codes" });
const customer = ctx.signedUpUser({ name: "Carl Coupon" });
const other = ctx.signedUpUser({ name: "Olga Other" });
const db = () => ctx.database.db;

const get = (url: string, user: TestUser | null = admin) =>
  ctx.app.inject({ method: "GET", url, headers: user ? { cookie: user.cookie } : {} });
const create = (body: object, user: TestUser | null = admin) =>
  fromShop(ctx.app, "POST", "/api/admin/discount-codes", user?.cookie, body);
const end = (id: string, user: TestUser | null = admin) =>
  fromShop(ctx.app, "POST", `/api/admin/discount-codes/${id}/end`, user?.cookie);
const putTax = (body: object, user: TestUser | null = admin) =>
  fromShop(ctx.app, "PUT", "/api/admin/settings/tax", user?.cookie, body);

let serial = 0;
/** A code no other test uses. */
const fresh = (prefix = "T") => `${prefix}-${process.pid}-${++serial}-${Date.now() % 100_000}`;

function book(user: TestUser, productId: string, body: Record<string, unknown> = {}) {
  return ctx.app.inject({
    method: "POST",
    url: "/api/orders",
    headers: { cookie: user.cookie, origin: ORIGIN },
    payload: { productId, quantity: 10, address: "1 Loop Road, Austin", phone: "5550123", ...body },
  });
}

const entriesFor = (action: string, targetId?: string) =>
  db()
    .select()
    .from(activityLog)
    .where(
      and(eq(activityLog.action, action as never), targetId ? eq(activityLog.targetId, targetId) : undefined),
    )
    .orderBy(activityLog.id);

describe("making discount codes", () => {
  it("makes a percentage code, kept upper case, on the activity log with what it gives", async () => {
    const code = fresh("spring").toLowerCase();
    const res = await create({ code: `  ${code} `, kind: "percent", value: 15, minQuantity: 20 });
    expect(res.statusCode, res.body).toBe(201);
    const made: DiscountCode = res.json();
    expect(made).toMatchObject({
      code: code.toUpperCase(),
      kind: "percent",
      value: 15,
      minQuantity: 20,
      endsAt: null,
      products: [],
      categories: [],
      maxUses: null,
      maxUsesPerCustomer: null,
      uses: 0,
      endedAt: null,
      createdBy: admin.email,
      state: "active",
    });
    const [entry] = await entriesFor("discount_code.created", made.id);
    expect(entry).toMatchObject({ actorId: admin.id, targetType: "discount_code" });
    expect(entry?.changes).toMatchObject({
      code: [null, code.toUpperCase()],
      kind: [null, "percent"],
      value: [null, 15],
    });
  });

  it("makes an amount in cents for some products and categories, with dates and limits", async () => {
    const fan = await insertProduct(db(), { name: "Codes fan" });
    const startsAt = new Date(Date.now() + 3_600_000).toISOString();
    const endsAt = new Date(Date.now() + 7 * 86_400_000).toISOString();
    const res = await create({
      code: fresh("FIVE"),
      kind: "amount",
      value: 1250,
      startsAt,
      endsAt,
      productIds: [fan],
      categories: ["mice", "keyboards"],
      maxUses: 10,
      maxUsesPerCustomer: 2,
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({
      kind: "amount",
      value: 1250,
      startsAt,
      endsAt,
      products: [{ id: fan, name: "Codes fan" }],
      categories: ["mice", "keyboards"],
      maxUses: 10,
      maxUsesPerCustomer: 2,
      state: "scheduled",
    });
  });

  it("refuses a wrong field with 400 under that field, making nothing", async () => {
    const before = await db().select({ n: sql<number>`count(*)::int` }).from(discountCodes);
    const past = new Date(Date.now() - 60_000).toISOString();
    const soon = new Date(Date.now() + 60_000).toISOString();
    const cases: [object, string, string][] = [
      [{ code: "AB", kind: "percent", value: 10 }, "code", m.codeInvalid],
      [{ code: "HAS SPACE", kind: "percent", value: 10 }, "code", m.codeInvalid],
      [{ code: "X".repeat(33), kind: "percent", value: 10 }, "code", m.codeInvalid],
      [{ code: "ÜBER-10", kind: "percent", value: 10 }, "code", m.codeInvalid],
      [{ code: fresh(), kind: "free", value: 10 }, "kind", m.kindInvalid],
      [{ code: fresh(), kind: "percent", value: 0 }, "value", m.percentInvalid],
      [{ code: fresh(), kind: "percent", value: 101 }, "value", m.percentInvalid],
      [{ code: fresh(), kind: "percent", value: 12.5 }, "value", m.percentInvalid],
      [{ code: fresh(), kind: "amount", value: 0 }, "value", m.amountInvalid("$999,999.00")],
      [{ code: fresh(), kind: "amount", value: 100_000_000 }, "value", m.amountInvalid("$999,999.00")],
      [
        { code: fresh(), kind: "amount", value: 10, startsAt: soon, endsAt: soon },
        "endsAt",
        m.endBeforeStart,
      ],
      [{ code: fresh(), kind: "amount", value: 10, endsAt: past }, "endsAt", m.endPassed],
      [{ code: fresh(), kind: "amount", value: 10, endsAt: "tomorrow" }, "endsAt", m.dateInvalid],
      [
        { code: fresh(), kind: "amount", value: 10, minQuantity: 0 },
        "minQuantity",
        m.minQuantityInvalid(1_000_000),
      ],
      [{ code: fresh(), kind: "amount", value: 10, maxUses: 0 }, "maxUses", m.usesInvalid],
      [
        { code: fresh(), kind: "amount", value: 10, maxUses: 2, maxUsesPerCustomer: 3 },
        "maxUsesPerCustomer",
        m.perCustomerOverTotal,
      ],
      [
        { code: fresh(), kind: "amount", value: 10, productIds: ["00000000-0000-4000-8000-000000000000"] },
        "productIds",
        m.productsUnknown,
      ],
      [
        { code: fresh(), kind: "amount", value: 10, categories: ["mice", "mice"] },
        "categories",
        m.categoriesInvalid,
      ],
    ];
    for (const [body, path, message] of cases) {
      const res = await create(body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().errors, JSON.stringify(body)).toContainEqual({ path, message });
    }
    const after = await db().select({ n: sql<number>`count(*)::int` }).from(discountCodes);
    expect(after).toEqual(before);
  });

  it("answers 409 for a code that is taken, whatever its case", async () => {
    const code = fresh("TAKEN");
    expect((await create({ code, kind: "percent", value: 5 })).statusCode).toBe(201);
    const again = await create({ code: code.toLowerCase(), kind: "amount", value: 500 });
    expect(again.statusCode).toBe(409);
    expect(again.json().detail).toBe(m.taken(code));
    const logged = (await entriesFor("discount_code.created")).filter(
      (row) => row.changes.code?.[1] === code,
    );
    expect(logged).toHaveLength(1);
  });
});

describe("listing codes", () => {
  it("pages newest first with a cursor, counts them, and refuses a forged cursor", async () => {
    const codes = [fresh("LIST"), fresh("LIST"), fresh("LIST")];
    for (const code of codes)
      expect((await create({ code, kind: "percent", value: 5 })).statusCode).toBe(201);
    const first: DiscountCodePage = (await get("/api/admin/discount-codes?limit=2")).json();
    expect(first.items.map((c) => c.code)).toEqual([codes[2], codes[1]]);
    expect(first.total.count).toBeGreaterThanOrEqual(3);
    expect(first.nextCursor).not.toBeNull();
    const second: DiscountCodePage = (
      await get(`/api/admin/discount-codes?limit=2&cursor=${first.nextCursor}`)
    ).json();
    expect(second.items[0]?.code).toBe(codes[0]);
    expect((await get("/api/admin/discount-codes?cursor=forged")).statusCode).toBe(400);
    expect((await get("/api/admin/discount-codes?limit=101")).statusCode).toBe(400);
  });
});

describe("a code's uses and its end", () => {
  it("lists the orders holding a use, newest first, and drops one whose order is removed", async () => {
    const productId = await insertProduct(db(), { price: 30 });
    const code = fresh("USE");
    const made: DiscountCode = (await create({ code, kind: "percent", value: 10 })).json();
    const booked: Order[] = [];
    for (const user of [customer, other, customer]) {
      const res = await book(user, productId, { discountCode: code.toLowerCase() });
      expect(res.statusCode, res.body).toBe(201);
      booked.push(res.json());
    }
    const detail: DiscountCodeDetail = (await get(`/api/admin/discount-codes/${made.id}?limit=2`)).json();
    expect(detail.code).toMatchObject({ code, uses: 3 });
    expect(detail.total).toEqual({ count: 3, exact: true });
    expect(detail.items).toEqual([
      expect.objectContaining({
        orderId: booked[2]?.id,
        email: customer.email,
        discountCents: 3000,
        status: "pending",
      }),
      expect.objectContaining({ orderId: booked[1]?.id, email: other.email, discountCents: 3000 }),
    ]);
    const rest: DiscountCodeDetail = (
      await get(`/api/admin/discount-codes/${made.id}?limit=2&cursor=${detail.nextCursor}`)
    ).json();
    expect(rest.items.map((u) => u.orderId)).toEqual([booked[0]?.id]);
    expect(rest.nextCursor).toBeNull();

    // A removed order gives its use back: gone from the list and the count.
    expect((await fromShop(ctx.app, "DELETE", `/api/orders/${booked[1]?.id}`, admin.cookie)).statusCode).toBe(
      204,
    );
    const after: DiscountCodeDetail = (await get(`/api/admin/discount-codes/${made.id}`)).json();
    expect(after.code.uses).toBe(2);
    expect(after.items.map((u) => u.orderId)).toEqual([booked[2]?.id, booked[0]?.id]);
  });

  it("says the code is used up once its uses are taken", async () => {
    const productId = await insertProduct(db());
    const made: DiscountCode = (
      await create({ code: fresh("ONCE"), kind: "amount", value: 100, maxUses: 1 })
    ).json();
    expect((await book(customer, productId, { discountCode: made.code })).statusCode).toBe(201);
    const detail: DiscountCodeDetail = (await get(`/api/admin/discount-codes/${made.id}`)).json();
    expect(detail.code).toMatchObject({ uses: 1, state: "used-up" });
  });

  it("ends a code: no booking takes it after, the orders keep theirs, and ending again changes nothing", async () => {
    const productId = await insertProduct(db(), { price: 40 });
    const made: DiscountCode = (await create({ code: fresh("END"), kind: "amount", value: 2500 })).json();
    const kept = await book(customer, productId, { discountCode: made.code });
    expect(kept.statusCode, kept.body).toBe(201);

    const ended = await end(made.id);
    expect(ended.statusCode, ended.body).toBe(200);
    const endedCode: DiscountCode = ended.json();
    expect(endedCode).toMatchObject({ state: "ended", uses: 1 });
    expect(endedCode.endedAt).not.toBeNull();
    const again = await end(made.id);
    expect(again.statusCode).toBe(200);
    expect(again.json().endedAt).toBe(endedCode.endedAt);
    expect(await entriesFor("discount_code.ended", made.id)).toHaveLength(1);

    const refused = await book(other, productId, { discountCode: made.code });
    expect(refused.statusCode).toBe(422);
    const [order] = await db()
      .select({ discountCents: orders.discountCents })
      .from(orders)
      .where(eq(orders.id, kept.json().id));
    expect(order?.discountCents).toBe(2500);
  });

  it("answers 404 for a code that does not exist, and 400 for an id that is none", async () => {
    const ghost = "00000000-0000-4000-8000-000000000000";
    expect((await get(`/api/admin/discount-codes/${ghost}`)).statusCode).toBe(404);
    expect((await end(ghost)).statusCode).toBe(404);
    expect((await get("/api/admin/discount-codes/not-a-uuid")).statusCode).toBe(400);
  });
});

describe("who may", () => {
  it("lets only admins read and change codes and the tax", async () => {
    const made: DiscountCode = (await create({ code: fresh("MINE"), kind: "percent", value: 5 })).json();
    const requests = [
      (u: TestUser | null) => get("/api/admin/discount-codes", u),
      (u: TestUser | null) => get(`/api/admin/discount-codes/${made.id}`, u),
      (u: TestUser | null) => create({ code: fresh("NOPE"), kind: "percent", value: 5 }, u),
      (u: TestUser | null) => end(made.id, u),
      (u: TestUser | null) => get("/api/admin/settings/tax", u),
      (u: TestUser | null) => putTax({ ratePercent: 50, pricesIncludeTax: false, taxId: "" }, u),
    ];
    for (const request of requests) {
      expect((await request(null)).statusCode).toBe(401);
      expect((await request(customer)).statusCode).toBe(403);
    }
    const still: DiscountCodeDetail = (await get(`/api/admin/discount-codes/${made.id}`)).json();
    expect(still.code.endedAt).toBeNull();
    expect((await get("/api/admin/settings/tax")).json().taxRateBp).not.toBe(5000);
  });

  it("asks an admin whose factor is not fresh to prove it again before making a code or changing the tax", async () => {
    const stale = await signUpAdmin(ctx.app);
    await enrolApp(ctx.app, stale);
    await db()
      .update(sessions)
      .set({ secondFactorAt: sql`now() - interval '11 minutes'` })
      .where(eq(sessions.userId, stale.id));
    for (const res of [
      await create({ code: fresh("STALE"), kind: "percent", value: 5 }, stale),
      await putTax({ ratePercent: 1, pricesIncludeTax: false, taxId: "" }, stale),
    ]) {
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe(problemCodes.stepUpRequired);
    }
    // Ending a code gives nothing away: no step-up.
    const made: DiscountCode = (await create({ code: fresh("ENDABLE"), kind: "percent", value: 5 })).json();
    expect((await end(made.id, stale)).statusCode).toBe(200);
  });
});

describe("tax settings", () => {
  it("refuses a rate outside 0 to 100 or with more than 2 decimals, and a tax ID with other characters", async () => {
    for (const [body, path] of [
      [{ ratePercent: -1, pricesIncludeTax: false, taxId: "" }, "ratePercent"],
      [{ ratePercent: 100.01, pricesIncludeTax: false, taxId: "" }, "ratePercent"],
      [{ ratePercent: 8.255, pricesIncludeTax: false, taxId: "" }, "ratePercent"],
      [{ ratePercent: "8", pricesIncludeTax: false, taxId: "" }, "ratePercent"],
      [{ ratePercent: 8, pricesIncludeTax: "yes", taxId: "" }, "pricesIncludeTax"],
      [{ ratePercent: 8, pricesIncludeTax: false, taxId: "DE<script>" }, "taxId"],
      [{ ratePercent: 8, pricesIncludeTax: false, taxId: "X".repeat(33) }, "taxId"],
    ] as const) {
      const res = await putTax(body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().errors.map((e: { path: string }) => e.path)).toContain(path);
    }
  });

  it("applies a new rate to the orders booked after it; an order keeps the rate it was booked with", async () => {
    const productId = await insertProduct(db(), { price: 25 });
    expect((await putTax({ ratePercent: 0, pricesIncludeTax: false, taxId: "" })).statusCode).toBe(200);
    const before: Order = (await book(customer, productId)).json();
    expect(before).toMatchObject({ netCents: 25_000, taxCents: 0, grossCents: 25_000, taxRateBp: 0 });

    const res = await putTax({ ratePercent: 8.25, pricesIncludeTax: false, taxId: " US-12-345/6 " });
    expect(res.statusCode, res.body).toBe(200);
    const saved: TaxSettings = res.json();
    expect(saved).toMatchObject({ taxRateBp: 825, pricesIncludeTax: false, taxId: "US-12-345/6" });
    expect((await get("/api/admin/settings/tax")).json()).toEqual(saved);
    const [entry] = (await entriesFor("settings.tax_changed")).slice(-1);
    expect(entry?.changes).toEqual({ taxRateBp: [0, 825], taxId: ["", "US-12-345/6"] });

    const after: Order = (await book(customer, productId)).json();
    expect(after).toMatchObject({ netCents: 25_000, taxCents: 2063, grossCents: 27_063, taxRateBp: 825 });

    // Prices with tax: the same line is the gross, the tax taken out of it.
    expect((await putTax({ ratePercent: 20, pricesIncludeTax: true, taxId: "US-12-345/6" })).statusCode).toBe(
      200,
    );
    const inclusive: Order = (await book(other, productId)).json();
    expect(inclusive).toMatchObject({
      grossCents: 25_000,
      netCents: 20_833,
      taxCents: 4167,
      pricesIncludeTax: true,
    });

    const [kept] = await db()
      .select({ taxRateBp: orders.taxRateBp, taxCents: orders.taxCents, grossCents: orders.grossCents })
      .from(orders)
      .where(eq(orders.id, before.id));
    expect(kept).toEqual({ taxRateBp: 0, taxCents: 0, grossCents: 25_000 });
    await putTax({ ratePercent: 0, pricesIncludeTax: false, taxId: "" });
  });

  it("saving the settings as they are changes nothing and logs nothing", async () => {
    await putTax({ ratePercent: 3, pricesIncludeTax: false, taxId: "SAME" });
    const [row] = await db().select().from(shopSettings);
    const logged = (await entriesFor("settings.tax_changed")).length;
    const again = await putTax({ ratePercent: 3, pricesIncludeTax: false, taxId: "SAME" });
    expect(again.statusCode).toBe(200);
    expect((await entriesFor("settings.tax_changed")).length).toBe(logged);
    const [same] = await db().select().from(shopSettings);
    expect(same?.updatedAt).toEqual(row?.updatedAt);
    await putTax({ ratePercent: 0, pricesIncludeTax: false, taxId: "" });
  });
});
