import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { type AdminSales, SALES_DAYS, TOP_PRODUCTS_SIZE } from "../../../shared/admin.js";
import type { Order, OrderStatus } from "../../../shared/orders.js";
import { orders } from "../../db/schema/index.js";
import { setUpTestApp } from "../../test/app.js";
import { confirmWithCard, orderRow, placeOrder, post } from "../../test/payments.js";
import { until } from "../../test/until.js";
import { fromShop, type TestUser } from "../../test/users.js";

// The charts read sums kept by triggers (sales_day, product_sales, overview_count); here they follow
// every kind of change, one by one and racing, and are compared with a full recount from "order".

// The expiry job every 200 ms: an order is made due by moving its hold's end into the past.
const ctx = setUpTestApp(
  { ORDER_HOLD_HOURS: "0.5", ORDER_EXPIRY_INTERVAL_SECONDS: "0.2" },
  { rateLimit: { max: 100_000, windowSeconds: 60 } },
);
const admin = ctx.signedUpAdmin({ email: "sales.admin@example.com" });
const customers = [0, 1, 2].map((i) => ctx.signedUpUser({ name: `Buyer ${i}` }));
const first = () => customers[0] as TestUser;

const sales = (cookie: string) => ctx.app.inject({ url: "/api/admin/sales", headers: { cookie } });

async function chart(): Promise<AdminSales> {
  const res = await sales(admin.cookie);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

async function pay(user: TestUser, order: Order): Promise<void> {
  const transactionId = await confirmWithCard(ctx, user, order.id);
  const paid = await post(ctx, user, `/api/orders/${order.id}/pay`, { transactionId });
  expect(paid.statusCode, paid.body).toBe(200);
}

async function ship(order: Order): Promise<void> {
  const res = await post(ctx, admin, `/api/orders/${order.id}/ship`);
  expect(res.statusCode, res.body).toBe(200);
}

async function refund(order: Order): Promise<void> {
  const res = await post(ctx, admin, `/api/orders/${order.id}/refund`);
  expect(res.statusCode, res.body).toBe(200);
}

async function remove(user: TestUser, order: Order): Promise<void> {
  const res = await fromShop(ctx.app, "DELETE", `/api/orders/${order.id}`, user.cookie);
  expect(res.statusCode, res.body).toBe(204);
}

/** Lets the expiry job take the order, as when its hold runs out. */
async function expire(order: Order): Promise<void> {
  await ctx.database.db
    .update(orders)
    .set({ expiresAt: new Date(Date.now() - 1000) })
    .where(eq(orders.id, order.id));
  await until(
    `order ${order.id} expired`,
    async () => (await orderRow(ctx, order.id))?.status === "expired",
    30_000,
  );
}

/**
 * Orders of earlier days, as an import or seed:scale writes them with plain SQL: placed `placed`
 * days ago, paid `paid` days ago (or not), refunded `refunded` days ago (or not).
 */
async function past(placed: number, paid: number | null, refunded: number | null, count = 3): Promise<void> {
  const user = first();
  const status = refunded !== null ? "refunded" : paid !== null ? "paid" : "expired";
  const ago = (days: number | null) =>
    days === null ? sql`null` : sql`now() - make_interval(days => ${days})`;
  // On a product of their own: the product with the lowest id, taken before, was now and then the
  // refunded order's product, which their units then put on the top list.
  await ctx.database.db.execute(sql`
    with fan as (
      insert into product (name, description, image, price, quantity, category)
      values ('Past fan ' || gen_random_uuid(), 'd', '/media/x.svg', 13, 0, 'keyboards') returning id
    )
    insert into "order" (user_id, product_id, product_name, img, name, email, address, phone, quantity,
                         unit_price, total_price, net_cents, gross_cents, status, transaction_id, created_at, paid_at, refunded_at)
    select ${user.id}, (select id from fan), 'Past fan', '/media/x.svg', 'Buyer',
           ${user.email}, '1 Loop Road', '5550123', 10, 13, 130, 13000, 13000, ${status}::order_status,
           case when ${paid === null} then null else 'pi_past_' || g || '_' || random() end,
           ${ago(placed)}, ${ago(paid)}, ${ago(refunded)}
    from generate_series(1, ${count}) g`);
}

/** The charts counted the slow way, from every row of "order", over the days the answer covers. */
async function recount(window: string[]): Promise<AdminSales> {
  const db = ctx.database.db;
  const days = await db.execute<AdminSales["days"][number]>(sql`
    select to_char(d, 'YYYY-MM-DD') as "day",
           (select count(*) from "order" where (created_at at time zone 'UTC')::date = d)::int as "orders",
           (select count(*) from "order" where (paid_at at time zone 'UTC')::date = d)::int as "paid",
           ((select coalesce(sum(total_price), 0) from "order" where (paid_at at time zone 'UTC')::date = d)
            - (select coalesce(sum(total_price), 0) from "order" where (refunded_at at time zone 'UTC')::date = d)
           )::bigint as "revenue"
    from unnest(${`{${window.join(",")}}`}::date[]) as d order by d`);
  const statuses = await db.execute<{ status: OrderStatus; orders: number }>(sql`
    select s as "status", (select count(*) from "order" where status = s)::int as "orders"
    from unnest(enum_range(null::order_status)) as s`);
  const top = await db.execute<AdminSales["topProducts"][number]>(sql`
    select p.id, p.name, sum(o.quantity)::bigint as "units"
    from "order" o join product p on p.id = o.product_id
    where o.status in ('paid', 'shipped')
    group by p.id, p.name having sum(o.quantity) > 0
    order by "units" desc, p.id desc limit ${TOP_PRODUCTS_SIZE}`);
  return { days: days.rows, statuses: statuses.rows, topProducts: top.rows };
}

const utcDay = (date: Date) => date.toISOString().slice(0, 10);
const today = (answer: AdminSales) => answer.days.at(-1) ?? { day: "", orders: 0, paid: 0, revenue: 0 };
const statusCount = (answer: AdminSales, status: OrderStatus) =>
  answer.statuses.find((s) => s.status === status)?.orders ?? 0;

async function expectRecounted(): Promise<AdminSales> {
  const answer = await chart();
  expect(answer).toEqual(await recount(answer.days.map((d) => d.day)));
  return answer;
}

describe("GET /api/admin/sales", () => {
  it("is refused to a customer (403) and a visitor (401)", async () => {
    expect((await sales(first().cookie)).statusCode).toBe(403);
    expect((await sales("")).statusCode).toBe(401);
  });

  it("answers the last 30 UTC days, today last, every day present", async () => {
    const before = utcDay(new Date());
    const answer = await chart();
    const after = utcDay(new Date());
    expect(answer.days).toHaveLength(SALES_DAYS);
    expect([before, after]).toContain(today(answer).day);
    const last = Date.parse(`${today(answer).day}T00:00:00Z`);
    expect(answer.days.map((d) => d.day)).toEqual(
      Array.from({ length: SALES_DAYS }, (_, i) =>
        utcDay(new Date(last - (SALES_DAYS - 1 - i) * 86_400_000)),
      ),
    );
    expect(answer.statuses.map((s) => s.status)).toEqual([
      "pending",
      "paid",
      "shipped",
      "refunded",
      "expired",
    ]);
  });

  it("equals a full recount after orders placed, paid, shipped, refunded, expired and removed", async () => {
    const buyer = first();
    const before = await expectRecounted();
    const [toShip, toRefund, toExpire, toRemove, toPay, left] = await Promise.all(
      [41, 43, 47, 53, 59, 61].map((price) => placeOrder(ctx, buyer, price)),
    );
    if (!toShip || !toRefund || !toExpire || !toRemove || !toPay || !left)
      throw new Error("orders not placed");
    await pay(buyer, toShip);
    await ship(toShip);
    await pay(buyer, toRefund);
    await refund(toRefund);
    await pay(buyer, toPay);
    await expire(toExpire);
    await remove(buyer, toRemove);
    // Earlier days: placed 3 days ago and paid 2 days ago, then refunded today; paid yesterday;
    // placed and expired 40 days ago, outside the window.
    await past(3, 2, 0);
    await past(1, 1, null, 2);
    await past(40, null, null);

    const after = await expectRecounted();
    // Today moved by exactly the orders made above: six placed, one removed; three paid today,
    // one of them refunded today, and three orders of $130 paid two days ago refunded today too.
    expect(today(after).orders - today(before).orders).toBe(5);
    expect(today(after).paid - today(before).paid).toBe(3);
    expect(today(after).revenue - today(before).revenue).toBe(410 + 590 - 3 * 130);
    expect(after.days.at(-2)?.paid).toBe((before.days.at(-2)?.paid ?? 0) + 2);
    expect(after.days.at(-3)).toMatchObject({ paid: (before.days.at(-3)?.paid ?? 0) + 3 });
    expect(after.days.at(-4)?.orders).toBe((before.days.at(-4)?.orders ?? 0) + 3);
    const moved = (status: OrderStatus) => statusCount(after, status) - statusCount(before, status);
    expect([moved("pending"), moved("paid"), moved("shipped"), moved("refunded"), moved("expired")]).toEqual([
      1,
      1 + 2,
      1,
      1 + 3,
      1 + 3,
    ]);
    // The shipped and the paid order's products (10 units each) are on the top list; the refunded one's is not.
    const top = after.topProducts.map((p) => p.id);
    expect(top.length).toBeGreaterThan(0);
    expect(after.topProducts.every((p) => p.units > 0)).toBe(true);
    expect(top).not.toContain(toRefund.productId);
  });

  it("stays equal to a full recount while orders are placed, paid, shipped, refunded and removed concurrently", async () => {
    const before = await expectRecounted();
    /** One customer's orders through their whole lives, all at once. */
    const lives = async (user: TestUser) => {
      const placed = await Promise.all([30, 31, 32, 33, 34].map((price) => placeOrder(ctx, user, price)));
      const [toShip, toRefund, toPay, toRemove] = placed as [Order, Order, Order, Order, Order];
      await Promise.all([
        pay(user, toShip).then(() => ship(toShip)),
        pay(user, toRefund).then(() => refund(toRefund)),
        pay(user, toPay),
        remove(user, toRemove),
      ]);
    };
    await Promise.all([
      ...customers.map(lives),
      ...customers.map(lives),
      past(2, 1, null, 20),
      past(5, 4, 0, 10),
    ]);
    const after = await expectRecounted();
    // The race did move them: 6 × 4 orders kept today, 6 × 3 paid.
    expect(today(after).orders - today(before).orders).toBe(24);
    expect(today(after).paid - today(before).paid).toBe(18);
    expect(statusCount(after, "refunded") - statusCount(before, "refunded")).toBe(6 + 10);
  });

  it("keeps the top list to the products with the most units, ties by id, at most ten", async () => {
    const answer = await expectRecounted();
    expect(answer.topProducts).toHaveLength(TOP_PRODUCTS_SIZE);
    const units = answer.topProducts.map((p) => p.units);
    expect(units).toEqual([...units].sort((a, b) => b - a));
  });

  it("stays equal to a full recount when a product with paid orders is deleted", async () => {
    const order = await placeOrder(ctx, first());
    await pay(first(), order);
    // Not through the API (it keeps products); as an operator's SQL would.
    await ctx.database.db.execute(sql`delete from product where id = ${order.productId}`);
    const answer = await expectRecounted();
    expect(answer.topProducts.some((p) => p.id === order.productId)).toBe(false);
  });

  it("drops to zero when the orders are truncated", async () => {
    await ctx.database.db.execute(sql`truncate "order" cascade`);
    const answer = await expectRecounted();
    expect(answer.days.every((d) => d.orders === 0 && d.paid === 0 && d.revenue === 0)).toBe(true);
    expect(answer.topProducts).toEqual([]);
  });
});
