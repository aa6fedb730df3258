import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import type { AdminOverview } from "../../../shared/admin.js";
import { LOW_STOCK_THRESHOLD } from "../../../shared/constants.js";
import { products } from "../../db/schema/index.js";
import { seedScale } from "../../db/seed/scale.js";
import { setUpTestApp } from "../../test/app.js";
import { bookOrder } from "../../test/payments.js";
import { setStockDirectly, stockedProduct } from "../../test/products.js";
import { ORIGIN, signUp, type TestUser } from "../../test/users.js";
import type { OverviewCounts } from "./service.js";

// The overview reads running counts kept by triggers (schema/overview.ts); here they race every
// kind of change and are compared with full counts afterwards.

const THIS_YEAR = new Date().getUTCFullYear();
const CARD = { number: "4242 4242 4242 4242", expMonth: 12, expYear: THIS_YEAR + 3, cvc: "123" };

const ctx = setUpTestApp({}, { rateLimit: { max: 100_000, windowSeconds: 60 } });
const admin = ctx.signedUpAdmin({ email: "overview.counts.admin@example.com" });
const customers = [0, 1, 2].map((i) => ctx.signedUpUser({ name: `Racer ${i}` }));
let productId: string;
beforeAll(async () => {
  productId = await stockedProduct(ctx.database.db, 1_000_000, 11);
});

function post(user: TestUser, url: string, payload?: object) {
  return ctx.app.inject({
    method: "POST",
    url,
    headers: { origin: ORIGIN, cookie: user.cookie },
    ...(payload ? { payload } : {}),
  });
}

const placeOrder = async (user: TestUser) => (await bookOrder(ctx, user, productId)).id;

async function pay(user: TestUser, orderId: string): Promise<void> {
  const intent = await post(user, `/api/orders/${orderId}/payment-intent`);
  expect(intent.statusCode, intent.body).toBe(200);
  const confirmed = await post(user, "/api/payments/sandbox/confirm", {
    clientSecret: intent.json().clientSecret,
    card: CARD,
    billing: { name: "Racer", email: user.email },
  });
  expect(confirmed.statusCode, confirmed.body).toBe(200);
  const paid = await post(user, `/api/orders/${orderId}/pay`, {
    transactionId: confirmed.json().paymentIntent.id,
  });
  expect(paid.statusCode, paid.body).toBe(200);
}

async function ship(orderId: string): Promise<void> {
  const res = await post(admin, `/api/orders/${orderId}/ship`);
  expect(res.statusCode, res.body).toBe(200);
}

async function remove(user: TestUser, orderId: string): Promise<void> {
  const res = await ctx.app.inject({
    method: "DELETE",
    url: `/api/orders/${orderId}`,
    headers: { origin: ORIGIN, cookie: user.cookie },
  });
  expect(res.statusCode, res.body).toBe(204);
}

/** One customer's orders through their whole lives: placed, then paid and shipped, or removed. */
async function lives(user: TestUser, round: number): Promise<void> {
  const ids = await Promise.all([placeOrder(user), placeOrder(user), placeOrder(user), placeOrder(user)]);
  const [toShip, toPay, toRemove] = ids;
  await Promise.all([
    pay(user, toShip as string).then(() => ship(toShip as string)),
    pay(user, toPay as string),
    remove(user, toRemove as string),
    round % 2 === 0 ? placeOrder(user) : Promise.resolve(),
  ]);
}

/**
 * Orders added, moved and removed with plain SQL, many rows a statement, as seed:scale does. It
 * touches only its own rows: the customers' orders racing beside it are theirs to pay or remove.
 */
async function bulk(): Promise<void> {
  const customer = customers[0] as TestUser;
  await ctx.database.db.execute(sql`
    insert into "order" (user_id, product_id, product_name, img, name, email, address, phone, quantity,
                         unit_price, total_price, net_cents, gross_cents, status, transaction_id)
    select ${customer.id}, ${productId}, 'Overview race fan', '/media/x.svg', 'Racer', ${customer.email},
           '1 Loop Road', '5550123', 10, 11, 110, 11000, 11000, s, case when s in ('pending', 'expired') then null else 'pi_bulk_' || g || '_' || random() end
    from generate_series(1, 30) g, unnest(array['pending', 'paid', 'shipped', 'refunded', 'expired']::order_status[]) s`);
  await ctx.database.db.execute(sql`
    update "order" set status = 'shipped' where id in (select id from "order" where status = 'paid' and transaction_id like 'pi_bulk_%' limit 12)`);
  await ctx.database.db.execute(sql`
    update "order" set status = 'refunded' where id in (select id from "order" where status = 'paid' and transaction_id like 'pi_bulk_%' limit 5)`);
  await ctx.database.db.execute(sql`
    update "order" set status = 'expired' where id in (select id from "order" where status = 'pending' and product_name = 'Overview race fan' limit 4)`);
  await ctx.database.db.execute(sql`
    delete from "order" where id in (select id from "order" where status = 'pending' and product_name = 'Overview race fan' limit 7)`);
}

async function overview(): Promise<AdminOverview> {
  const res = await ctx.app.inject({ url: "/api/admin/overview", headers: { cookie: admin.cookie } });
  expect(res.statusCode).toBe(200);
  return res.json();
}

/** The overview's numbers counted the slow way, from every row. */
async function fullCount() {
  const { rows } = await ctx.database.db.execute<OverviewCounts>(sql`
    select (select count(*) from "user")::int as "users",
           (select count(*) from "order" where status = 'pending')::int as "unpaid",
           (select count(*) from "order" where status = 'paid')::int as "paidNotShipped",
           (select count(*) from "order" where status = 'shipped')::int as "shipped",
           (select count(*) from "order" where status = 'refunded')::int as "refunded",
           (select count(*) from "order" where status = 'expired')::int as "expired",
           (select count(*) from product where quantity < ${LOW_STOCK_THRESHOLD})::int as "lowStockCount"`);
  const row = rows[0];
  if (!row) throw new Error("no counts");
  return {
    users: row.users,
    orders: {
      unpaid: row.unpaid,
      paidNotShipped: row.paidNotShipped,
      shipped: row.shipped,
      refunded: row.refunded,
      expired: row.expired,
    },
    lowStockCount: row.lowStockCount,
  };
}

const counts = ({ users, orders, lowStockCount }: AdminOverview) => ({ users, orders, lowStockCount });

describe("the admin overview's running counts", () => {
  it("start from a full count of what was there before", async () => {
    expect(counts(await overview())).toEqual(await fullCount());
  });

  it("stay exact while orders are placed, paid, shipped and removed concurrently, in bulk too", async () => {
    const before = await overview();
    const users = [...customers];
    await Promise.all([
      ...users.map((user, i) => lives(user, i)),
      ...users.map((user, i) => lives(user, i + 1)),
      bulk(),
      // Accounts come and go meanwhile.
      signUp(ctx.app, { name: "Late Racer" }),
      signUp(ctx.app, { name: "Gone Racer" }).then((gone) =>
        ctx.app.inject({
          method: "DELETE",
          url: `/api/users/${gone.id}`,
          headers: { origin: ORIGIN, cookie: admin.cookie },
        }),
      ),
    ]);
    const after = await overview();
    expect(counts(after)).toEqual(await fullCount());
    // The race did change them: the counts followed, not stood still.
    expect(after.orders.shipped).toBeGreaterThan(before.orders.shipped);
    expect(after.orders.refunded).toBeGreaterThan(before.orders.refunded);
    expect(after.orders.expired).toBeGreaterThan(before.orders.expired);
    expect(after.users).toBe(before.users + 1);
  });

  it("follow stock falling below the low-stock threshold and rising above it", async () => {
    await setStockDirectly(ctx.database.db, eq(products.id, productId), LOW_STOCK_THRESHOLD - 1);
    expect((await overview()).lowStock.some((p) => p.id === productId)).toBe(true);
    expect(counts(await overview())).toEqual(await fullCount());
    await setStockDirectly(ctx.database.db, eq(products.id, productId), LOW_STOCK_THRESHOLD);
    expect((await overview()).lowStock.some((p) => p.id === productId)).toBe(false);
    expect(counts(await overview())).toEqual(await fullCount());
  });

  it("count what seed:scale adds with plain SQL, without being told", async () => {
    const client = await ctx.database.pool.connect();
    try {
      await seedScale(client, { users: 40, products: 60, orders: 500, reviews: 10 });
    } finally {
      client.release();
    }
    expect(counts(await overview())).toEqual(await fullCount());
  });

  it("drop to zero when the orders are truncated", async () => {
    await ctx.database.db.execute(sql`truncate "order" cascade`);
    expect((await overview()).orders).toEqual({
      unpaid: 0,
      paidNotShipped: 0,
      shipped: 0,
      refunded: 0,
      expired: 0,
    });
  });
});
