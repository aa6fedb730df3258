import { randomUUID } from "node:crypto";
import { rmSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createDatabase, type Database } from "../../db/client.js";
import { type EmbeddedDatabase, startEmbeddedPostgres } from "../../db/embedded.js";
import { type Bouncer, startPgBouncer } from "../pgbouncer.js";
import { stockedProduct } from "../products.js";
import { signedInCrowd } from "./crowd.js";
import { FIGURES, recordResults, TEST_DATA_DIR } from "./figures.js";
import { isCleanOutOfStock, UNITS_PER_ORDER } from "./oversell-round.js";
import { type Customer, ShopClient } from "./shop-client.js";
import { freePort, type ShopProcess, showOutputOnFailure, startShop } from "./shop-process.js";
import { productLedger } from "./stock.js";

// Three instances through one PgBouncer (issue 35, item 3; docs/scaling.md, "PgBouncer"): a
// PostgreSQL of this file's own whose max_connections is far below the three instances' pools added
// up, PgBouncer in transaction mode with a pool below it, and the instances' sessions (the catalog
// listener, the set-up lock) on DATABASE_DIRECT_URL. Under order load across the three, nothing
// fails, nothing is lost or doubled, and no connection is refused. `npm run test:stress` also runs
// the same load on three instances straight to PostgreSQL, for docs/scaling.md's orders per second.

const STRESS = process.env.STRESS === "1";
const INSTANCES = 3;
/** Each instance's pool (createDatabase's default): 3 × 20, and a listener each, would need 63. */
const INSTANCE_POOL = 20;
/** PostgreSQL's limit, of which superuser_reserved_connections (3) are the superuser's alone. */
const MAX_CONNECTIONS = 25;
const SUPERUSER_RESERVED = 3;
/** Server connections PgBouncer opens for the three instances together. */
const BOUNCER_POOL = 10;
/** Pools that fit, for the comparison straight to PostgreSQL: 3 × (20 + 1) and this file's own. */
const DIRECT_MAX_CONNECTIONS = 100;
/** One order in this many is for the scarce product, whose stock runs out: the rest are 409s. */
const SCARCE_EVERY = 4;
const SCARCE_ORDERS = Math.floor(FIGURES.pooledOrders / SCARCE_EVERY / 2);
/** Every this-many-th booking, once acknowledged, is sent again with its key to the next instance. */
const REPLAY_EVERY = 10;
/**
 * What a refused connection says, in PostgreSQL's log, PgBouncer's or a shop's: PostgreSQL's two
 * refusals (all slots taken; the last ones kept for superusers), PgBouncer's own (max_client_conn)
 * and its failed server login, which its clients never see: it retries.
 */
const REFUSED = /too many clients|remaining connection slots|no more connections allowed|login failed/i;

const base = path.join(TEST_DATA_DIR, `bouncer-${await freePort()}`);
const pgDir = path.join(base, "postgres");
const pgPort = await freePort();
const ports = await Promise.all(Array.from({ length: INSTANCES }, () => freePort()));

/** The cluster, PgBouncer (when pooled) and the instances of one scenario, and what they logged. */
interface Setup {
  postgres: EmbeddedDatabase;
  serverLog: string[];
  bouncer?: Bouncer;
  shops: ShopProcess[];
  clients: ShopClient[];
  /** The database's own address, for the test's checks and its crowd. */
  directUrl: string;
  /** For the test's checks: two connections, counted in the peak. */
  database: Database;
}

async function startSetup(through: "pgbouncer" | "direct"): Promise<Setup> {
  const serverLog: string[] = [];
  const postgres = await startEmbeddedPostgres(pgDir, pgPort, undefined, {
    maxConnections: through === "pgbouncer" ? MAX_CONNECTIONS : DIRECT_MAX_CONNECTIONS,
    onServerLog: (text) => serverLog.push(text),
  });
  const setup: Setup = {
    postgres,
    serverLog,
    shops: [],
    clients: [],
    directUrl: postgres.url,
    database: createDatabase(postgres.url, { max: 2 }),
  };
  try {
    setup.bouncer = through === "pgbouncer" ? await startPgBouncer(postgres.url, BOUNCER_POOL) : undefined;
    const env: Record<string, string> = setup.bouncer
      ? { DATABASE_URL: setup.bouncer.url, DATABASE_DIRECT_URL: postgres.url }
      : { DATABASE_URL: postgres.url };
    // One address for all, as a load balancer in front of them would give; started together, so
    // they race for the set-up lock on their direct connections.
    const publicUrl = `http://127.0.0.1:${ports[0]}`;
    const started = await Promise.allSettled(
      ports.map((port, i) =>
        startShop({
          port,
          dataDir: path.join(base, `shop-${i}`),
          env: { ...env, PUBLIC_URL: publicUrl },
        }),
      ),
    );
    for (const s of started) if (s.status === "fulfilled") setup.shops.push(s.value);
    const failed = started.find((s) => s.status === "rejected");
    if (failed) throw failed.reason;
    setup.clients = setup.shops.map((shop) => new ShopClient(shop.url, publicUrl));
    return setup;
  } catch (error) {
    await stopSetup(setup);
    throw error;
  }
}

async function stopSetup(setup: Setup | undefined) {
  if (!setup) return;
  for (const client of setup.clients) client.close();
  await Promise.all(setup.shops.map((shop) => shop.stop()));
  await setup.database.close();
  await setup.bouncer?.stop();
  await setup.postgres.stop();
}

/**
 * The most client connections PostgreSQL held at once while `work` ran, sampled every 20 ms on a
 * superuser's connection (one of the reserved ones, counted too).
 */
async function peakConnections<T>(
  adminUrl: string,
  work: () => Promise<T>,
): Promise<{ result: T; peak: number }> {
  const sampler = new pg.Client({ connectionString: adminUrl });
  await sampler.connect();
  let peak = 0;
  let sampling = true;
  const samples = (async () => {
    while (sampling) {
      const { rows } = await sampler.query<{ n: number }>(
        "select count(*)::int as n from pg_stat_activity where backend_type = 'client backend'",
      );
      peak = Math.max(peak, rows[0]?.n ?? 0);
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  try {
    return { result: await work(), peak };
  } finally {
    sampling = false;
    await samples;
    await sampler.end();
  }
}

interface LoadRun {
  /** Each acknowledged order: the product's id and the order's. */
  acked: { productId: string; orderId: string }[];
  statuses: Map<number, number>;
  /** Answers other than a 201 or a clean out-of-stock 409 on the scarce product, and failed requests. */
  unexpected: string[];
  replays: number;
  /** Replays answered otherwise than with the first answer's order. */
  replayMismatches: string[];
  ms: number;
  slowestMs: number;
}

/**
 * FIGURES.pooledOrders bookings, each with an Idempotency-Key, by every customer at once back to
 * back, customer i through instance i mod 3: one in SCARCE_EVERY for the scarce product, the rest
 * for the plentiful one. Every REPLAY_EVERY-th booking, once acknowledged, is sent again with its
 * key to the next instance, which must answer with the same order.
 */
async function orderLoad(
  clients: ShopClient[],
  customers: Customer[],
  plentiful: string,
  scarce: string,
): Promise<LoadRun> {
  const run: LoadRun = {
    acked: [],
    statuses: new Map(),
    unexpected: [],
    replays: 0,
    replayMismatches: [],
    ms: 0,
    slowestMs: 0,
  };
  let next = 0;
  const book = async (customer: Customer, i: number, n: number) => {
    const client = clients[i % clients.length] as ShopClient;
    const productId = n % SCARCE_EVERY === SCARCE_EVERY - 1 ? scarce : plentiful;
    const headers = { "idempotency-key": randomUUID() };
    const reply = await client.placeOrder(customer, productId, UNITS_PER_ORDER, headers);
    run.slowestMs = Math.max(run.slowestMs, reply.ms);
    run.statuses.set(reply.status, (run.statuses.get(reply.status) ?? 0) + 1);
    if (reply.status !== 201) {
      if (!(productId === scarce && isCleanOutOfStock(reply)))
        run.unexpected.push(`${reply.status} ${reply.text.slice(0, 300)}`);
      return;
    }
    const orderId = reply.json<{ id: string }>().id;
    run.acked.push({ productId, orderId });
    if (n % REPLAY_EVERY !== 0) return;
    run.replays += 1;
    const again = await (clients[(i + 1) % clients.length] as ShopClient).placeOrder(
      customer,
      productId,
      UNITS_PER_ORDER,
      headers,
    );
    if (again.status !== 201 || again.json<{ id: string }>().id !== orderId)
      run.replayMismatches.push(`${again.status} ${again.text.slice(0, 300)}`);
  };
  const worker = async (customer: Customer, i: number) => {
    while (next < FIGURES.pooledOrders) {
      const n = next++;
      await book(customer, i, n).catch((error: unknown) => {
        run.unexpected.push(`no answer: ${error instanceof Error ? error.message : String(error)}`);
      });
    }
  };
  const started = performance.now();
  await Promise.all(customers.map(worker));
  run.ms = Math.round(performance.now() - started);
  run.slowestMs = Math.round(run.slowestMs);
  return run;
}

/**
 * The load on fresh products and a fresh crowd, then what the database holds: every acknowledged
 * order exactly once and nothing else, each product's stock its start less what was booked. The
 * figures for recordResults.
 */
async function loadAndCheck(setup: Setup): Promise<Record<string, unknown>> {
  const db = setup.database.db;
  const plentifulStock = FIGURES.pooledOrders * UNITS_PER_ORDER;
  const scarceStock = SCARCE_ORDERS * UNITS_PER_ORDER;
  const plentiful = await stockedProduct(db, plentifulStock);
  const scarce = await stockedProduct(db, scarceStock);
  const customers = await signedInCrowd(setup.directUrl, FIGURES.pooledCustomers);

  const { result: run, peak } = await peakConnections(setup.postgres.adminUrl, () =>
    orderLoad(setup.clients, customers, plentiful, scarce),
  );

  const ledgers = {
    [plentiful]: await productLedger(db, plentiful),
    [scarce]: await productLedger(db, scarce),
  };
  const ackedOf = (productId: string) =>
    run.acked.filter((a) => a.productId === productId).map((a) => a.orderId);
  const created = run.statuses.get(201) ?? 0;
  const figures = {
    instances: setup.shops.length,
    customers: customers.length,
    bookings: FIGURES.pooledOrders,
    created,
    outOfStock409: run.statuses.get(409) ?? 0,
    serverErrors5xx: [...run.statuses].filter(([s]) => s >= 500).reduce((sum, [, n]) => sum + n, 0),
    unexpected: run.unexpected.length,
    unexpectedAnswers: run.unexpected.slice(0, 5),
    replays: run.replays,
    replayMismatches: run.replayMismatches.length,
    ms: run.ms,
    ordersPerSecond: Math.round((created * 1_000) / run.ms),
    slowestAnswerMs: run.slowestMs,
    peakClientConnections: peak,
  };
  expect(run.unexpected, "answers other than 201 and a clean out-of-stock 409").toEqual([]);
  expect(run.replayMismatches, "replays of an acknowledged order").toEqual([]);
  expect(run.replays).toBeGreaterThan(0);
  // The scarce product sold exactly its stock and refused the rest; the plentiful one never ran out.
  expect(ackedOf(scarce)).toHaveLength(SCARCE_ORDERS);
  expect(run.statuses.get(409)).toBe(FIGURES.pooledOrders - created);
  for (const [productId, start] of [
    [plentiful, plentifulStock],
    [scarce, scarceStock],
  ] as const) {
    const ledger = ledgers[productId];
    const acked = ackedOf(productId);
    // Exactly once: every acknowledged order is there, no two acknowledgements name one order, and
    // the database holds no order that nobody was told about.
    expect(new Set(acked).size).toBe(acked.length);
    expect([...(ledger?.orders.keys() ?? [])].sort()).toEqual([...acked].sort());
    expect(ledger?.stock).toBe(start - acked.length * UNITS_PER_ORDER);
  }
  return figures;
}

/** What the cluster, PgBouncer and the instances logged of a refused connection. */
const refusals = (scenario: Setup) =>
  [scenario.serverLog.join(""), scenario.bouncer?.output() ?? "", ...scenario.shops.map((s) => s.output())]
    .flatMap((log) => log.split("\n"))
    .filter((line) => REFUSED.test(line));

let setup: Setup | undefined;

beforeAll(() => {
  rmSync(base, { recursive: true, force: true });
});
afterAll(() => {
  rmSync(base, { recursive: true, force: true });
});
beforeEach(() => showOutputOnFailure(() => setup?.shops ?? []));

/** The scenario's setup for the tests of the describe block around the call: started before, stopped after. */
function runningSetup(through: "pgbouncer" | "direct") {
  beforeAll(async () => {
    setup = await startSetup(through);
  }, 300_000);
  afterAll(async () => {
    await stopSetup(setup);
    setup = undefined;
  });
}

describe("three instances through one PgBouncer", () => {
  runningSetup("pgbouncer");

  it(`books ${FIGURES.pooledOrders} orders from ${FIGURES.pooledCustomers} customers on ${MAX_CONNECTIONS} connections: nothing fails, is lost or refused`, async () => {
    if (!setup) throw new Error("not started");
    const figures = await loadAndCheck(setup);
    const refused = refusals(setup);
    recordResults("PgBouncer: three instances, max_connections far below their pools", {
      maxConnections: MAX_CONNECTIONS,
      instancePoolsAddedUp: INSTANCES * INSTANCE_POOL,
      bouncerPool: BOUNCER_POOL,
      ...figures,
      refusedConnections: refused.length,
    });
    expect(refused).toEqual([]);
    // Below what the shop's role may open, so PostgreSQL never had to refuse one.
    expect(figures.peakClientConnections).toBeLessThanOrEqual(MAX_CONNECTIONS - SUPERUSER_RESERVED);
  }, 300_000);
});

describe.runIf(STRESS)("three instances straight to PostgreSQL, for comparison", () => {
  runningSetup("direct");

  it("books the same load with pools that fit", async () => {
    if (!setup) throw new Error("not started");
    const figures = await loadAndCheck(setup);
    recordResults("PgBouncer: the same three instances straight to PostgreSQL", {
      maxConnections: DIRECT_MAX_CONNECTIONS,
      ...figures,
      refusedConnections: refusals(setup).length,
    });
    expect(refusals(setup)).toEqual([]);
  }, 300_000);
});
