import { asc, isNotNull, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../app.js";
import { createDatabase, type Database } from "../../db/client.js";
import { invoiceSequence, invoices, orders } from "../../db/schema/index.js";
import { setUpTestApp } from "../../test/app.js";
import { bookOrder, confirmWithCard, type Shop } from "../../test/payments.js";
import { stockedProduct } from "../../test/products.js";
import { until } from "../../test/until.js";
import { ORIGIN, type TestUser } from "../../test/users.js";

// Invoice numbers come from a trigger on "order" (migration 0012) that takes them from a one-row
// sequence in the paying transaction. Here payments race on two instances of the shop and on bare
// connections, some of them rolled back, one held open until the others queue behind it; then the
// numbers must be exactly 1..N, one per paid order. A PostgreSQL sequence (nextval) would leave a
// gap for every rollback and fail this.

const RATE_LIMIT = { rateLimit: { max: 100_000, windowSeconds: 60 } };

const ctx = setUpTestApp({}, RATE_LIMIT);
const customers = [0, 1, 2, 3, 4].map((i) => ctx.signedUpUser({ name: `Payer ${i}` }));

/** A second instance of the shop on the same database, as a deployment with two would have. */
let other: FastifyInstance;
let otherDatabase: Database;
let productId: string;
beforeAll(async () => {
  otherDatabase = createDatabase(ctx.url, { max: 4 });
  other = await buildApp(ctx.config, otherDatabase, { logger: false, ...RATE_LIMIT });
  await other.ready();
  productId = await stockedProduct(ctx.database.db, 1_000_000, 13);
});
afterAll(async () => {
  await other?.close();
  await otherDatabase?.close();
});

function post(app: FastifyInstance, user: TestUser, url: string, payload?: object) {
  return app.inject({
    method: "POST",
    url,
    headers: { origin: ORIGIN, cookie: user.cookie },
    ...(payload ? { payload } : {}),
  });
}

const placeOrder = async (user: TestUser) => (await bookOrder(ctx, user, productId)).id;

/** Pays through the sandbox on `shop`: intent and card, then /pay, which records the payment. */
async function pay(shop: Shop, user: TestUser, orderId: string): Promise<void> {
  const transactionId = await confirmWithCard(shop, user, orderId);
  const paid = await post(shop.app, user, `/api/orders/${orderId}/pay`, { transactionId });
  expect(paid.statusCode, paid.body).toBe(200);
}

/** A connection of its own, outside both instances' pools. */
async function connect(): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: ctx.url });
  await client.connect();
  return client;
}

const PAY = `update "order" set status = 'paid', paid_at = now(), transaction_id = 'pi_direct_' || id
  where id = any($1::uuid[]) and status = 'pending'`;

/** Records `ids` as paid in one statement of a transaction of its own, then commits or rolls back. */
async function payByUpdate(ids: string[], outcome: "commit" | "rollback"): Promise<void> {
  const client = await connect();
  try {
    await client.query("begin");
    const paid = await client.query(PAY, [ids]);
    expect(paid.rowCount).toBe(ids.length);
    await client.query(outcome);
  } finally {
    await client.end();
  }
}

/**
 * How many sessions of this database wait for a lock, asked on a connection of its own: the
 * instances' pools are full of waiting payments, and a session in a transaction sees
 * pg_stat_activity as it was at its first look. (Not pg_blocking_pids of the open payment: behind
 * a row lock only the first waiter waits for its holder, the next ones for the waiter before them.)
 */
async function waitingForLocks(): Promise<number> {
  const client = await connect();
  try {
    const { rows } = await client.query<{ n: number }>(
      "select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'",
    );
    return rows[0]?.n ?? 0;
  } finally {
    await client.end();
  }
}

async function invoiceRows() {
  return ctx.database.db.select().from(invoices).orderBy(asc(invoices.number));
}

describe("invoice numbers", () => {
  it("stay 1..N without a gap, one per paid order, while payments race on two instances and some roll back", async () => {
    const before = await invoiceRows();
    const payer = (i: number) => customers[i % customers.length] as TestUser;
    const sandboxPaid = await Promise.all(Array.from({ length: 30 }, (_, i) => placeOrder(payer(i))));
    const direct = await Promise.all(Array.from({ length: 17 }, (_, i) => placeOrder(payer(i))));
    const [held, ...rest] = direct as [string, ...string[]];
    const committed = rest.slice(0, 5);
    const rolledBack = rest.slice(5, 10);
    const committedTogether = rest.slice(10, 13);
    const rolledBackTogether = rest.slice(13, 16);

    // One payment takes the next number and keeps its transaction open…
    const holder = await connect();
    let racing: Promise<PromiseSettledResult<unknown>[]> | undefined;
    try {
      await holder.query("begin");
      await holder.query(PAY, [[held]]);
      // …while the others start: half the card payments through each instance, and payments
      // recorded on bare connections, one or three orders a statement, committed or rolled back.
      racing = Promise.allSettled([
        ...sandboxPaid.map((id, i) =>
          pay(i % 2 ? { app: other, database: otherDatabase } : ctx, payer(i), id),
        ),
        ...committed.map((id) => payByUpdate([id], "commit")),
        ...rolledBack.map((id) => payByUpdate([id], "rollback")),
        payByUpdate(committedTogether, "commit"),
        payByUpdate(rolledBackTogether, "rollback"),
      ]);
      // Once the 12 bare connections and some card payments wait behind it, it gives its number back.
      await until("payments wait behind the open one", async () => (await waitingForLocks()) >= 14);
      await holder.query("rollback");
    } finally {
      await holder.end();
    }
    for (const result of (await racing) ?? []) if (result.status === "rejected") throw result.reason;

    const after = await invoiceRows();
    const numbers = after.map((r) => r.number);
    expect(numbers).toEqual(Array.from({ length: numbers.length }, (_, i) => i + 1));
    const [sequence] = await ctx.database.db.select().from(invoiceSequence);
    expect(sequence?.next).toBe(numbers.length + 1);

    // One invoice per paid order, and none for an order whose payment rolled back.
    const paid = await ctx.database.db.select({ id: orders.id }).from(orders).where(isNotNull(orders.paidAt));
    expect(after.map((r) => r.orderId).sort()).toEqual(paid.map((r) => r.id).sort());
    const fresh = new Set(after.slice(before.length).map((r) => r.orderId));
    expect(fresh).toEqual(new Set([...sandboxPaid, ...committed, ...committedTogether]));
    for (const id of [held, ...rolledBack, ...rolledBackTogether]) expect(fresh.has(id), id).toBe(false);

    // Each invoice is issued at its order's payment date.
    const issued = await ctx.database.db.execute<{ mismatched: number }>(
      sql`select count(*)::int as mismatched from ${invoices} i join ${orders} o on o.id = i.order_id
          where i.issued_at <> o.paid_at`,
    );
    expect(issued.rows[0]?.mismatched).toBe(0);
  });
});
