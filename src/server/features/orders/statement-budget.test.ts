import type { FastifyInstance } from "fastify";
import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../app.js";
import { createDatabase, type Database } from "../../db/client.js";
import { createTestDatabase, testConfig } from "../../test/app.js";
import { stockedProduct } from "../../test/products.js";
import { until } from "../../test/until.js";
import { ORIGIN, signUp, type TestUser } from "../../test/users.js";

/**
 * Beside the orders budget of `npm run bench` (bench/run.ts): an order, session lookup included,
 * costs at most this many SQL statements, and books in one of them (book_order, outside any
 * transaction of the shop's: docs/decisions/order-lifecycle.md, "One call").
 */
const STATEMENT_BUDGET = 3;

/** No BEGIN: a transaction of the shop's would hold the product's row lock until its COMMIT arrived. */
function expectNoTransaction(sent: string[]) {
  expect(
    sent.filter((s) => /^\s*(begin|start transaction)\b/i.test(s)),
    sent.join("\n"),
  ).toEqual([]);
}

let app: FastifyInstance;
let database: Database;
let drop: () => Promise<void>;
let databaseUrl: string;
let customer: TestUser;
let productId: string;
/** Every statement sent through the app's pool (transaction control included), in order. */
const statements: string[] = [];

/** Records every statement any client of the pool sends, from the client's first query on. */
function recordStatements(pool: pg.Pool) {
  pool.on("connect", (client) => {
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    Object.assign(client, {
      query: (...args: unknown[]) => {
        const [first] = args;
        statements.push(typeof first === "string" ? first : String((first as { text?: string }).text));
        return query(...args);
      },
    });
  });
}

beforeAll(async () => {
  const testDb = await createTestDatabase();
  drop = testDb.drop;
  databaseUrl = testDb.url;
  database = createDatabase(testDb.url, { max: 4 });
  recordStatements(database.pool);
  app = await buildApp(testConfig(), database, { logger: false });
  await app.ready();
  customer = await signUp(app);
  productId = await stockedProduct(database.db, 10_000, 12);
});
afterAll(async () => {
  await app.close();
  await database.close();
  await drop();
});

async function statementsToOrder(headers: Record<string, string> = {}): Promise<string[]> {
  statements.length = 0;
  const res = await app.inject({
    method: "POST",
    url: "/api/orders",
    headers: { cookie: customer.cookie, origin: ORIGIN, ...headers },
    payload: { productId, quantity: 10, address: "1 Loop Road, Austin", phone: "5550123" },
  });
  expect(res.statusCode).toBe(201);
  return [...statements];
}

describe("SQL statements per order", () => {
  it(`places an order in at most ${STATEMENT_BUDGET} statements, the session lookup included`, async () => {
    const sent = await statementsToOrder();
    expect(
      sent.some((s) => s.includes('from "session"')),
      "the session lookup is counted",
    ).toBe(true);
    expect(sent.length, sent.join("\n")).toBeLessThanOrEqual(STATEMENT_BUDGET);
    expectNoTransaction(sent);
    // Its commit takes no notification lock: the instance tells the others after it (listener.ts).
    expect(sent.filter((s) => s.includes("pg_notify"))).toEqual([]);
  });

  it(`places an order with an Idempotency-Key in at most ${STATEMENT_BUDGET} statements`, async () => {
    const sent = await statementsToOrder({ "idempotency-key": "statement-budget-1" });
    expect(sent.length, sent.join("\n")).toBeLessThanOrEqual(STATEMENT_BUDGET);
    expectNoTransaction(sent);
  });
});

describe("the product's row lock", () => {
  it("is taken after the order is written, and the order takes the product as the lock finds it", async () => {
    const repriced = await stockedProduct(database.db, 1_000, 12);
    // An admin's edit holds the product's row while the booking comes in.
    const admin = createDatabase(databaseUrl, { max: 2 });
    const editor = await admin.pool.connect();
    try {
      await editor.query("begin");
      await editor.query(`update product set price = 20, name = 'Renamed while booked' where id = $1`, [
        repriced,
      ]);
      // inject sends when its answer is first asked for: Promise.resolve asks now.
      const booking = Promise.resolve(
        app.inject({
          method: "POST",
          url: "/api/orders",
          headers: { cookie: customer.cookie, origin: ORIGIN },
          payload: { productId: repriced, quantity: 10, address: "1 Loop Road, Austin", phone: "5550123" },
        }),
      );
      // The booking has written its order (with the price it read) and waits for the lock.
      await until(
        "the booking waits for the product's row lock",
        async () => {
          // Asked outside the editor's transaction, which sees one snapshot of the statistics.
          const { rows } = await admin.pool.query(
            `select count(*)::int as n from pg_stat_activity
           where wait_event_type = 'Lock' and query like '%book_order%'`,
          );
          return rows[0].n === 1;
        },
        30_000,
      );
      await editor.query("commit");
      const res = await booking;
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json()).toMatchObject({
        productName: "Renamed while booked",
        unitPrice: 20,
        totalPrice: 200,
      });
    } finally {
      editor.release();
      await admin.close();
    }
  });
});
