import { asc, eq, inArray, lt, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { AdminOverview } from "../../../shared/admin.js";
import { LOW_STOCK_THRESHOLD } from "../../../shared/constants.js";
import type { OrderStatus } from "../../../shared/orders.js";
import { products, users } from "../../db/schema/index.js";
import { setUpTestApp } from "../../test/app.js";
import { insertOrder } from "../../test/orders.js";
import { setStockDirectly } from "../../test/products.js";

const ADMIN_EMAIL = "overview.admin@example.com";

const ctx = setUpTestApp({}, { rateLimit: { max: 10_000, windowSeconds: 60 } });
const admin = ctx.signedUpAdmin({ email: ADMIN_EMAIL });
const customer = ctx.signedUpUser();
ctx.signedUpUser();

const overview = (cookie: string) => ctx.app.inject({ url: "/api/admin/overview", headers: { cookie } });

async function addOrders(status: OrderStatus, count: number) {
  for (let i = 0; i < count; i++)
    await insertOrder(ctx.database.db, {
      userId: customer.id,
      name: "Cory",
      email: customer.email,
      status,
      transactionId: status === "pending" ? null : `pi_${Math.random()}`,
    });
}

describe("GET /api/admin/overview", () => {
  it("counts users and orders by state, refunded and expired ones too", async () => {
    await addOrders("pending", 3);
    await addOrders("paid", 2);
    await addOrders("shipped", 4);
    await addOrders("refunded", 5);
    await addOrders("expired", 6);
    const res = await overview(admin.cookie);
    expect(res.statusCode).toBe(200);
    const body: AdminOverview = res.json();
    const userRows = await ctx.database.db.select({ id: users.id }).from(users);
    expect(userRows).toHaveLength(3);
    expect(body.users).toBe(3);
    expect(body.orders).toEqual({ unpaid: 3, paidNotShipped: 2, shipped: 4, refunded: 5, expired: 6 });
  });

  it("lists products below the low-stock threshold, lowest first", async () => {
    const body: AdminOverview = (await overview(admin.cookie)).json();
    const expected = await ctx.database.db
      .select({
        id: products.id,
        name: products.name,
        quantity: products.quantity,
        threshold: sql<number>`${LOW_STOCK_THRESHOLD}::int`,
      })
      .from(products)
      .where(lt(products.quantity, LOW_STOCK_THRESHOLD))
      .orderBy(asc(products.quantity), asc(products.name));
    expect(expected.length).toBeGreaterThan(0);
    expect(body.lowStock).toEqual(expected.slice(0, 10));
    expect(body.lowStockCount).toBe(expected.length);
  });

  it("shows at most 10 low-stock products, the emptiest first", async () => {
    const some = await ctx.database.db.select({ id: products.id }).from(products).limit(12);
    const ids = some.map((p) => p.id);
    await setStockDirectly(ctx.database.db, inArray(products.id, ids), 7);
    const [empty] = ids;
    await setStockDirectly(ctx.database.db, eq(products.id, empty ?? ""), 0);
    const body: AdminOverview = (await overview(admin.cookie)).json();
    expect(body.lowStock).toHaveLength(10);
    expect(body.lowStockCount).toBeGreaterThanOrEqual(12);
    expect(body.lowStock[0]).toMatchObject({ id: empty, quantity: 0 });
    const quantities = body.lowStock.map((p) => p.quantity);
    expect(quantities).toEqual([...quantities].sort((a, b) => a - b));
    expect(quantities.every((q) => q < LOW_STOCK_THRESHOLD)).toBe(true);
  });

  it("is refused to a customer (403) and a visitor (401)", async () => {
    expect((await overview(customer.cookie)).statusCode).toBe(403);
    expect((await overview("")).statusCode).toBe(401);
  });
});
