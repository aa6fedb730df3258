import type { FastifyInstance, LightMyRequestResponse } from "fastify";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { catalogMessages } from "../../../shared/messages/catalog.js";
import { type BuildOptions, buildApp } from "../../app.js";
import { createDatabase, type Database } from "../../db/client.js";
import { setUpTestApp, testConfig } from "../../test/app.js";
import { until } from "../../test/until.js";
import type { SearchLimits } from "./search.js";

// Searches are rationed (search.ts): a few at a time, a bounded line, a time limit per statement.
// The tests hold every search still, deterministically, by locking the table of search words that
// each search reads first, from a connection of their own; the product list itself does not read it.

const ctx = setUpTestApp();
const extra: { app: FastifyInstance; database: Database }[] = [];
afterAll(async () => {
  for (const { app, database } of extra) {
    await app.close();
    await database.close();
  }
});

/** One more app on the test's database, with its searches rationed as given. */
async function appWith(search: Partial<SearchLimits>): Promise<FastifyInstance> {
  const database = createDatabase(ctx.url, { max: 4 });
  const options: BuildOptions = { logger: false, catalogSearch: search };
  const app = await buildApp(testConfig(), database, options);
  await app.ready();
  extra.push({ app, database });
  return app;
}

/** Locks out every search until the returned function is called. */
async function holdSearches(): Promise<() => Promise<void>> {
  const client = new pg.Client({ connectionString: ctx.url });
  await client.connect();
  await client.query("begin");
  await client.query("lock table search_word in access exclusive mode");
  return async () => {
    await client.query("rollback");
    await client.end();
  };
}

/** Resolves once `n` statements wait for a lock on the test's database: the held searches. */
async function searchesWaiting(n: number): Promise<void> {
  await until(
    `${n} searches waiting for the search words' lock`,
    async () => {
      const { rows } = await ctx.database.pool.query<{ n: number }>(
        "select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'",
      );
      return (rows[0]?.n ?? 0) >= n;
    },
    60_000,
  );
}

const search = (app: FastifyInstance, term: string) =>
  app.inject({ method: "GET", url: `/api/products?search=${encodeURIComponent(term)}` });

function expectUnavailable(res: LightMyRequestResponse, detail: string) {
  expect(res.statusCode).toBe(503);
  expect(res.headers["content-type"]).toContain("application/problem+json");
  expect(Number(res.headers["retry-after"])).toBeGreaterThan(0);
  expect(res.json()).toMatchObject({ status: 503, title: "Service Unavailable", detail });
}

describe("rationed catalog searches", () => {
  it("cuts off a search that runs past its statement time limit with a 503, not a 500", async () => {
    const app = await appWith({ statementTimeoutMs: 50 });
    const release = await holdSearches();
    try {
      expectUnavailable(await search(app, "mouse"), catalogMessages.searchTooLong);
    } finally {
      await release();
    }
    // Nothing of the refusal is kept: asked again, the search answers.
    expect((await search(app, "mouse")).statusCode).toBe(200);
  });

  it("refuses a search at once when the line is full, and answers the one that waited its turn", async () => {
    const app = await appWith({ concurrency: 1, queue: 1, maxWaitMs: 60_000, statementTimeoutMs: 60_000 });
    const release = await holdSearches();
    const running = search(app, "keyboard");
    await searchesWaiting(1);
    // One of these two waits in line; the other finds it full.
    const [b, c] = [search(app, "headset"), search(app, "fan")];
    expectUnavailable(await Promise.race([b, c]), catalogMessages.searchBusy);
    await release();
    expect((await running).statusCode).toBe(200);
    expect((await Promise.all([b, c])).map((res) => res.statusCode).sort()).toEqual([200, 503]);
  });

  it("refuses a search that waited too long for its turn", async () => {
    const app = await appWith({ concurrency: 1, queue: 5, maxWaitMs: 50, statementTimeoutMs: 60_000 });
    const release = await holdSearches();
    const running = search(app, "memory");
    await searchesWaiting(1);
    // Answered before the running search can finish: the searches are held until release.
    expectUnavailable(await search(app, "ram"), catalogMessages.searchBusy);
    await release();
    expect((await running).statusCode).toBe(200);
  });

  it("keeps the rest of the catalog answering while every search is held", async () => {
    const app = await appWith({ concurrency: 1, queue: 0, maxWaitMs: 60_000, statementTimeoutMs: 60_000 });
    const release = await holdSearches();
    const running = search(app, "cooling");
    await searchesWaiting(1);
    try {
      expectUnavailable(await search(app, "silent"), catalogMessages.searchBusy);
      const page = await app.inject({ url: "/api/products?category=mice&sort=price-desc" });
      expect(page.statusCode).toBe(200);
      const [first] = page.json().items;
      expect((await app.inject({ url: `/api/products/${first.id}` })).statusCode).toBe(200);
    } finally {
      await release();
    }
    expect((await running).statusCode).toBe(200);
  });
});
