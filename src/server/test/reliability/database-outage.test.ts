import { rmSync } from "node:fs";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Order } from "../../../shared/orders.js";
import { type EmbeddedDatabase, serverProcesses, startEmbeddedPostgres } from "../../db/embedded.js";
import { stockedProduct } from "../products.js";
import { until } from "../until.js";
import { FIGURES, recordResults } from "./figures.js";
import { UNITS_PER_ORDER } from "./oversell-round.js";
import { type Customer, type HttpReply, ORDER_DETAILS, ShopClient } from "./shop-client.js";
import { type ShopProcess, shopPlace, showOutputOnFailure, startShop } from "./shop-process.js";
import { productLedger, withDatabase } from "./stock.js";

// Database outage (README.md, Guarantees): the shop's PostgreSQL goes away and comes back. The shop
// talks to a PostgreSQL of this test file's own (DATABASE_URL), which the tests stop, freeze and
// bring back.

const START_STOCK = 1_000_000;
/** /readyz must answer within this, whatever the database does. */
const READY_BOUND_MS = 2_000;
/** A call that has to connect to a database that is away gives up after the connect timeout (2 s). */
const STOPPED_BOUND_MS = 3_000;
/** A call on a connection that was open when the database stopped answering waits for query_timeout (20 s). */
const FROZEN_BOUND_MS = 23_000;

const { port: httpPort, pgPort, dataDir, pgDir } = await shopPlace("outage");

let postgres: EmbeddedDatabase | undefined;
let databaseUrl: string;
let shop: ShopProcess | undefined;
let client: ShopClient;
let customer: Customer;
let productId: string;

beforeAll(async () => {
  rmSync(dataDir, { recursive: true, force: true });
  postgres = await startEmbeddedPostgres(pgDir, pgPort);
  databaseUrl = postgres.url;
  shop = await startShop({ port: httpPort, dataDir, env: { DATABASE_URL: databaseUrl } });
  client = new ShopClient(shop.url);
  customer = await client.signUp("Outage Buyer");
  productId = await withDatabase(databaseUrl, (db) => stockedProduct(db, START_STOCK));
}, 300_000);

afterAll(async () => {
  client?.close();
  await shop?.stop();
  await postgres?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

beforeEach(async () => {
  showOutputOnFailure(() => [shop]);
  // Each test starts with the database up, whatever the one before it did.
  postgres ??= await startEmbeddedPostgres(pgDir, pgPort);
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const isProblem503 = (r: HttpReply) =>
  r.status === 503 &&
  String(r.headers["content-type"]).startsWith("application/problem+json") &&
  r.json<{ status: number }>().status === 503 &&
  r.headers["retry-after"] !== undefined;

/** Every kind of call a shopper makes, at once: a public read, reads and a write behind the session. */
const shopperCalls = () =>
  Promise.all([
    client.request("GET", "/api/products"),
    client.request("GET", "/api/me", { cookie: customer.cookie }),
    client.request("GET", "/api/orders/mine", { cookie: customer.cookie }),
    client.request("POST", "/api/orders", {
      cookie: customer.cookie,
      body: { productId, quantity: UNITS_PER_ORDER, ...ORDER_DETAILS },
    }),
  ]);

/** Customers order without pause; every 201 is remembered, every other answer counted by status. */
function orderLoad() {
  const acked = new Set<string>();
  const statuses = new Map<number, number>();
  let slowestMs = 0;
  let lastCreatedAt = 0;
  let running = true;
  const worker = async () => {
    while (running) {
      const reply = await client.placeOrder(customer, productId, UNITS_PER_ORDER);
      slowestMs = Math.max(slowestMs, reply.ms);
      statuses.set(reply.status, (statuses.get(reply.status) ?? 0) + 1);
      if (reply.status === 201) {
        acked.add(reply.json<Order>().id);
        lastCreatedAt = performance.now();
      } else await sleep(50);
    }
  };
  const workers = Promise.all(Array.from({ length: 4 }, worker));
  return {
    acked,
    statuses,
    slowestMs: () => Math.round(slowestMs),
    lastCreatedAt: () => lastCreatedAt,
    stop: async () => {
      running = false;
      await workers;
    },
  };
}

/** Milliseconds until /readyz answers 200 again (-1 after 30 s). */
async function timeToReady(): Promise<number> {
  const from = performance.now();
  while (performance.now() - from < 30_000) {
    if ((await client.request("GET", "/readyz")).status === 200) return Math.round(performance.now() - from);
    await sleep(50);
  }
  return -1;
}

async function stored() {
  const ledger = await withDatabase(databaseUrl, (db) => productLedger(db, productId));
  return { ids: ledger.orders, stockPlusOrderedUnits: ledger.stock + ledger.orderedUnits };
}

describe("database outage", () => {
  it(
    "answers 503 quickly while the database is stopped, resumes by itself when it returns, and loses nothing acknowledged",
    async () => {
      const load = orderLoad();
      // Orders acknowledged before the outage, the ones it must not lose.
      await until("an order acknowledged before the outage", () => load.acked.size >= 4, 60_000);
      const ackedBefore = load.acked.size;

      // Fast shutdown: PostgreSQL ends every session, open transactions roll back.
      await postgres?.stop();
      postgres = undefined;
      const stoppedAt = performance.now();
      const firstReady = await client.request("GET", "/readyz");
      const timeTo503Ms = Math.round(performance.now() - stoppedAt);

      const readyz: HttpReply[] = [firstReady];
      const healthz: HttpReply[] = [];
      const api: HttpReply[] = [];
      while (performance.now() - stoppedAt < FIGURES.outageSeconds * 1_000) {
        const [ready, health, calls] = await Promise.all([
          client.request("GET", "/readyz"),
          client.request("GET", "/healthz"),
          shopperCalls(),
        ]);
        readyz.push(ready);
        healthz.push(health);
        api.push(...calls);
        await sleep(250);
      }

      postgres = await startEmbeddedPostgres(pgDir, pgPort);
      const backAt = performance.now();
      const recoverMs = await timeToReady();
      while (load.lastCreatedAt() < backAt && performance.now() - backAt < 30_000) await sleep(50);
      const firstOrderAfterReturnMs = Math.round(load.lastCreatedAt() - backAt);
      await sleep(500);
      await load.stop();
      const after = await stored();
      const missing = [...load.acked].filter((id) => !after.ids.has(id));

      recordResults("13 database outage (stopped)", {
        outageSeconds: FIGURES.outageSeconds,
        timeTo503Ms,
        slowestReadyzMs: Math.round(Math.max(...readyz.map((r) => r.ms))),
        readyzStatuses: [...new Set(readyz.map((r) => r.status))],
        healthzStatuses: [...new Set(healthz.map((r) => r.status))],
        apiCallsDuringOutage: api.length,
        apiProblem503: api.filter(isProblem503).length,
        slowestApiCallMs: Math.round(Math.max(...api.map((r) => r.ms))),
        loadStatuses: Object.fromEntries(load.statuses),
        slowestLoadRequestMs: load.slowestMs(),
        recoverMs,
        firstOrderAfterReturnMs,
        acknowledgedBeforeOutage: ackedBefore,
        acknowledgedTotal: load.acked.size,
        missing: missing.length,
        stockPlusOrderedUnits: after.stockPlusOrderedUnits,
        startingStock: START_STOCK,
      });

      expect(firstReady.status).toBe(503);
      expect(timeTo503Ms).toBeLessThan(READY_BOUND_MS);
      expect(readyz.filter((r) => r.status !== 503 || r.ms >= READY_BOUND_MS)).toEqual([]);
      expect(healthz.every((r) => r.status === 200)).toBe(true);
      expect(api.filter((r) => !isProblem503(r)).map((r) => `${r.status} ${r.text}`)).toEqual([]);
      expect(Math.max(...api.map((r) => r.ms), load.slowestMs())).toBeLessThan(STOPPED_BOUND_MS);
      expect([...load.statuses.keys()].filter((s) => s !== 201 && s !== 503)).toEqual([]);
      expect(ackedBefore).toBeGreaterThan(0);
      expect(recoverMs).toBeGreaterThanOrEqual(0);
      expect(firstOrderAfterReturnMs).toBeGreaterThanOrEqual(0);
      expect(missing).toEqual([]);
      expect(after.stockPlusOrderedUnits).toBe(START_STOCK);
    },
    240_000 + FIGURES.outageSeconds * 1_000,
  );

  it("answers 503 within the driver's timeouts while the database stops answering, and resumes when it answers again", async () => {
    // Idle connections in the pool, so some calls wait on an open connection, not on a new one.
    await Promise.all(Array.from({ length: 3 }, shopperCalls));
    const frozen = serverProcesses(pgDir);
    expect(frozen.length).toBeGreaterThan(0);
    let readyz: HttpReply;
    let api: HttpReply[];
    // A hung host or a network partition: connections stay open, nothing answers.
    for (const pid of frozen) process.kill(pid, "SIGSTOP");
    try {
      // More calls than idle connections: some wait on an open one, the others open new ones.
      const calls = Promise.all(Array.from({ length: 5 }, shopperCalls)).then((all) => all.flat());
      [readyz, api] = await Promise.all([client.request("GET", "/readyz"), calls]);
    } finally {
      for (const pid of frozen) process.kill(pid, "SIGCONT");
    }
    const thawedAt = performance.now();
    const recoverMs = await timeToReady();
    const order = await client.placeOrder(customer, productId, UNITS_PER_ORDER);

    recordResults("13 database outage (not answering)", {
      readyzStatus: readyz.status,
      readyzMs: Math.round(readyz.ms),
      apiCalls: api.length,
      apiProblem503: api.filter(isProblem503).length,
      fastestApiCallMs: Math.round(Math.min(...api.map((r) => r.ms))),
      slowestApiCallMs: Math.round(Math.max(...api.map((r) => r.ms))),
      recoverMs,
      firstOrderAfterThawMs: Math.round(performance.now() - thawedAt),
    });
    expect(readyz.status).toBe(503);
    expect(readyz.ms).toBeLessThan(READY_BOUND_MS);
    expect(api.filter((r) => !isProblem503(r)).map((r) => `${r.status} ${r.text}`)).toEqual([]);
    expect(Math.max(...api.map((r) => r.ms))).toBeLessThan(FROZEN_BOUND_MS);
    // A call that had to connect gave up after the connect timeout, not the query timeout.
    expect(Math.min(...api.map((r) => r.ms))).toBeLessThan(STOPPED_BOUND_MS);
    expect(recoverMs).toBeGreaterThanOrEqual(0);
    expect(order.status).toBe(201);
  }, 240_000);
});
