import { asc, eq, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../app.js";
import { createDatabase, type Database } from "../../db/client.js";
import { creditNoteSequence, creditNotes, invoices, orders } from "../../db/schema/index.js";
import { setUpTestApp } from "../../test/app.js";
import { bookOrder, confirmWithCard, type Shop } from "../../test/payments.js";
import { stockedProduct } from "../../test/products.js";
import { until } from "../../test/until.js";
import { ORIGIN, type TestUser } from "../../test/users.js";

// Credit note numbers come from a trigger on "order" (migration 0025) that takes them from a
// one-row sequence in the refunding transaction, as invoice numbers do (numbering.test.ts). Here
// refunds race on two instances of the shop (an admin's refund through the payment provider) and
// on bare connections, some of them rolled back, one held open until the others queue behind it;
// then the numbers must be exactly 1..N, one per refunded order. A PostgreSQL sequence (nextval)
// would leave a gap for every rollback and fail this.

const RATE_LIMIT = { rateLimit: { max: 100_000, windowSeconds: 60 } };

const ctx = setUpTestApp({}, RATE_LIMIT);
const customers = [0, 1, 2, 3, 4].map((i) => ctx.signedUpUser({ name: `Refunded ${i}` }));
const admin = ctx.signedUpAdmin();

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

const payer = (i: number) => customers[i % customers.length] as TestUser;

/** An order paid through the sandbox, so the provider can refund it. */
async function paidByCard(user: TestUser): Promise<string> {
  const { id } = await bookOrder(ctx, user, productId);
  const transactionId = await confirmWithCard(ctx, user, id);
  const paid = await post(ctx.app, user, `/api/orders/${id}/pay`, { transactionId });
  expect(paid.statusCode, paid.body).toBe(200);
  return id;
}

/** A connection of its own, outside both instances' pools. */
async function connect(): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: ctx.url });
  await client.connect();
  return client;
}

/** Orders recorded as paid on a bare connection (their invoices issued), to refund on bare connections. */
async function paidDirectly(count: number): Promise<string[]> {
  const ids = await Promise.all(
    Array.from({ length: count }, async (_, i) => (await bookOrder(ctx, payer(i), productId)).id),
  );
  const client = await connect();
  try {
    await client.query(
      `update "order" set status = 'paid', paid_at = now(), transaction_id = 'pi_direct_' || id
       where id = any($1::uuid[]) and status = 'pending'`,
      [ids],
    );
  } finally {
    await client.end();
  }
  return ids;
}

/** An admin refunds through the provider on `shop`. */
async function refund(shop: Shop, orderId: string): Promise<void> {
  const res = await post(shop.app, admin, `/api/orders/${orderId}/refund`);
  expect(res.statusCode, res.body).toBe(200);
  expect(res.json().status).toBe("refunded");
}

const REFUND = `update "order" set status = 'refunded', refunded_at = now()
  where id = any($1::uuid[]) and status = 'paid'`;

/** Records `ids` as refunded in one statement of a transaction of its own, then commits or rolls back. */
async function refundByUpdate(ids: string[], outcome: "commit" | "rollback"): Promise<void> {
  const client = await connect();
  try {
    await client.query("begin");
    const refunded = await client.query(REFUND, [ids]);
    expect(refunded.rowCount).toBe(ids.length);
    await client.query(outcome);
  } finally {
    await client.end();
  }
}

/** How many sessions of this database wait for a lock (see numbering.test.ts). */
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

/**
 * The admin's refunds, 6 on this instance (a pool of 10) and 3 on the other (a pool of 4): each
 * waits for the open refund holding one connection, and the sandbox provider's refund takes
 * another from the same pool before it (features/payments/sandbox.ts), so a refund more than a
 * pool's connections would wait for a connection instead, and be answered 503.
 */
const BY_CARD = 9;

const creditNoteRows = () => ctx.database.db.select().from(creditNotes).orderBy(asc(creditNotes.number));

describe("credit note numbers", () => {
  it("stay 1..N without a gap, one per refunded order, while refunds race on two instances and some roll back", async () => {
    const before = await creditNoteRows();
    const byCard: string[] = [];
    for (let i = 0; i < BY_CARD; i++) byCard.push(await paidByCard(payer(i)));
    const direct = await paidDirectly(17);
    const [held, ...rest] = direct as [string, ...string[]];
    const committed = rest.slice(0, 5);
    const rolledBack = rest.slice(5, 10);
    const committedTogether = rest.slice(10, 13);
    const rolledBackTogether = rest.slice(13, 16);

    // One refund takes the next number and keeps its transaction open…
    const holder = await connect();
    let racing: Promise<PromiseSettledResult<unknown>[]> | undefined;
    try {
      await holder.query("begin");
      await holder.query(REFUND, [[held]]);
      // …while the others start: the admin's refunds, a third through the other instance, and
      // refunds recorded on bare connections, one or three orders a statement, committed or rolled back.
      racing = Promise.allSettled([
        ...byCard.map((id, i) => refund(i % 3 ? ctx : { app: other, database: otherDatabase }, id)),
        ...committed.map((id) => refundByUpdate([id], "commit")),
        ...rolledBack.map((id) => refundByUpdate([id], "rollback")),
        refundByUpdate(committedTogether, "commit"),
        refundByUpdate(rolledBackTogether, "rollback"),
      ]);
      // Once the 12 bare connections and every admin's refund wait behind it, it gives its number back.
      await until("refunds wait behind the open one", async () => (await waitingForLocks()) >= 12 + BY_CARD);
      await holder.query("rollback");
    } finally {
      await holder.end();
    }
    for (const result of (await racing) ?? []) if (result.status === "rejected") throw result.reason;

    const after = await creditNoteRows();
    const numbers = after.map((r) => r.number);
    expect(numbers).toEqual(Array.from({ length: numbers.length }, (_, i) => i + 1));
    const [sequence] = await ctx.database.db.select().from(creditNoteSequence);
    expect(sequence?.next).toBe(numbers.length + 1);

    // One credit note per refunded order, and none for an order whose refund rolled back.
    const refunded = await ctx.database.db
      .select({ id: orders.id, number: orders.creditNoteNumber })
      .from(orders)
      .where(eq(orders.status, "refunded"));
    expect(after.map((r) => r.orderId).sort()).toEqual(refunded.map((r) => r.id).sort());
    const fresh = new Set(after.slice(before.length).map((r) => r.orderId));
    expect(fresh).toEqual(new Set([...byCard, ...committed, ...committedTogether]));
    for (const id of [held, ...rolledBack, ...rolledBackTogether]) expect(fresh.has(id), id).toBe(false);
    const unrefunded = await ctx.database.db
      .select({ number: orders.creditNoteNumber })
      .from(orders)
      .where(eq(orders.id, held));
    expect(unrefunded).toEqual([{ number: null }]);

    // Each is the order's own: its number on the order, issued at the refund, for the order's
    // gross, crediting the order's invoice.
    const mismatched = await ctx.database.db.execute<{ n: number }>(
      sql`select count(*)::int as n from ${creditNotes} c join ${orders} o on o.id = c.order_id
          join ${invoices} i on i.order_id = o.id
          where o.credit_note_number is distinct from c.number or c.issued_at <> o.refunded_at
             or c.amount_cents <> o.gross_cents or c.invoice_number <> i.number`,
    );
    expect(mismatched.rows[0]?.n).toBe(0);
  });
});
