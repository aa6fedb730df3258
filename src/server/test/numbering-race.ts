import type { FastifyInstance } from "fastify";
import pg from "pg";
import { afterAll, beforeAll, expect } from "vitest";
import { buildApp } from "../app.js";
import { createDatabase, type Database } from "../db/client.js";
import { setUpTestApp } from "./app.js";
import type { Shop } from "./payments.js";
import { stockedProduct } from "./products.js";
import { until } from "./until.js";
import { ORIGIN, type TestUser } from "./users.js";

// The invoice and credit note numbering tests (features/invoices/*numbering.test.ts) race one
// statement that takes a number from a one-row sequence (a trigger on "order") on two instances of
// the shop and on bare connections, some rolled back, one held open until the others queue behind
// it. This is the stage they share.

const RATE_LIMIT = { rateLimit: { max: 100_000, windowSeconds: 60 } };

/** Five customers named `name` 0..4, an admin, and a second instance of the shop on the same database. */
export function setUpNumberingRace(name: string) {
  const ctx = setUpTestApp({}, RATE_LIMIT);
  const customers = [0, 1, 2, 3, 4].map((i) => ctx.signedUpUser({ name: `${name} ${i}` }));
  const admin = ctx.signedUpAdmin();
  /** A second instance of the shop on the same database, as a deployment with two would have. */
  let other: FastifyInstance;
  let otherDatabase: Database;
  let productId = "";
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

  /** A connection of its own, outside both instances' pools. */
  async function connect(): Promise<pg.Client> {
    const client = new pg.Client({ connectionString: ctx.url });
    await client.connect();
    return client;
  }

  /**
   * How many sessions of this database wait for a lock, asked on a connection of its own: the
   * instances' pools are full of waiting requests, and a session in a transaction sees
   * pg_stat_activity as it was at its first look. (Not pg_blocking_pids of the open one: behind a
   * row lock only the first waiter waits for its holder, the next ones for the waiter before them.)
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

  /** Runs `statement` on `ids` in a transaction of its own, then commits or rolls back. */
  async function updateInTransaction(statement: string, ids: string[], outcome: "commit" | "rollback") {
    const client = await connect();
    try {
      await client.query("begin");
      const updated = await client.query(statement, [ids]);
      expect(updated.rowCount).toBe(ids.length);
      await client.query(outcome);
    } finally {
      await client.end();
    }
  }

  return {
    ctx,
    admin,
    connect,
    /** The i-th of the five customers, round. */
    payer: (i: number) => customers[i % customers.length] as TestUser,
    /** The other instance, to send every so many requests to. */
    other: (): Shop => ({ app: other, database: otherDatabase }),
    /** A product with stock for every order of the test, at $13. */
    productId: () => productId,
    /** A POST from the shop's origin on `app` (this instance or the other). */
    post(app: FastifyInstance, user: TestUser, url: string, payload?: object) {
      return app.inject({
        method: "POST",
        url,
        headers: { origin: ORIGIN, cookie: user.cookie },
        ...(payload ? { payload } : {}),
      });
    },

    /**
     * Runs `statement` (it numbers the orders it is given) on the first of `direct`'s 17 orders and
     * keeps that transaction open while `requests` start, and 5 of the rest are updated one a
     * transaction committed, 5 rolled back, 3 in one transaction committed and 3 rolled back; once
     * the 12 bare connections and `requestsWaiting` of the requests wait behind it, it rolls back,
     * giving its number back. Throws the first request that failed; the held order, and the bare
     * connections' orders that should and should not have a number (the held one among the latter).
     */
    async race(
      statement: string,
      direct: string[],
      requests: () => Promise<unknown>[],
      requestsWaiting: number,
    ): Promise<{ held: string; numbered: string[]; unnumbered: string[] }> {
      const [held, ...rest] = direct as [string, ...string[]];
      const committed = rest.slice(0, 5);
      const rolledBack = rest.slice(5, 10);
      const committedTogether = rest.slice(10, 13);
      const rolledBackTogether = rest.slice(13, 16);
      const holder = await connect();
      let racing: Promise<PromiseSettledResult<unknown>[]> | undefined;
      try {
        await holder.query("begin");
        await holder.query(statement, [[held]]);
        racing = Promise.allSettled([
          ...requests(),
          ...committed.map((id) => updateInTransaction(statement, [id], "commit")),
          ...rolledBack.map((id) => updateInTransaction(statement, [id], "rollback")),
          updateInTransaction(statement, committedTogether, "commit"),
          updateInTransaction(statement, rolledBackTogether, "rollback"),
        ]);
        await until(
          "the others wait behind the open one",
          async () => (await waitingForLocks()) >= 12 + requestsWaiting,
        );
        await holder.query("rollback");
      } finally {
        await holder.end();
      }
      for (const result of (await racing) ?? []) if (result.status === "rejected") throw result.reason;
      return {
        held,
        numbered: [...committed, ...committedTogether],
        unnumbered: [held, ...rolledBack, ...rolledBackTogether],
      };
    },
  };
}
