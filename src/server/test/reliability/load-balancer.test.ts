import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import { rmSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { like, sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from "vitest";
import { createDatabase, type Database } from "../../db/client.js";
import { rateLimits } from "../../db/schema/index.js";
import { stockedProduct } from "../products.js";
import { until } from "../until.js";
import { recordResults, TEST_DATA_DIR } from "./figures.js";
import { type Customer, ShopClient } from "./shop-client.js";
import { freePort, type ShopProcess, showOutputOnFailure, startShop } from "./shop-process.js";

// Three instances behind HAProxy (issue 19, item 1; docs/deploy.md), with docs/haproxy.cfg as it is
// documented: a rolling restart under steady load (reads, and orders each with an Idempotency-Key)
// fails no request and loses or doubles no order; an instance killed with SIGKILL fails only what
// was in flight on it, within the health checks' time, and clients that retry with the same key
// end with one order each. `npm run test:stress` also measures throughput with 1, 2 and 3
// instances (docs/scaling.md). Issue 28: HAProxy overwrites X-Forwarded-For and the instances trust
// only it (TRUST_PROXY), so a client's own X-Forwarded-For buys it no fresh rate limit; the metrics
// ports listen on loopback though the instances listen on every interface.

const REPO_ROOT = path.resolve(import.meta.dirname, "../../../..");
const STRESS = process.env.STRESS === "1";
const adminUrl = inject("testDatabaseAdminUrl");
const dbName = `lb_${randomBytes(6).toString("hex")}`;
const databaseUrl = Object.assign(new URL(adminUrl), { pathname: `/${dbName}` }).toString();
const ports = [await freePort(), await freePort(), await freePort()];
const metricsPorts = [await freePort(), await freePort(), await freePort()];
const lbPort = await freePort();
const lbUrl = `http://127.0.0.1:${lbPort}`;
/** How long a stopping instance answers /readyz 503 before it closes: above HAProxy's 2 s to notice. */
const GRACE_SECONDS = 3;
/** Sign-in, sign-up and reset attempts per client address a minute: low enough to reach. */
const AUTH_LIMIT = 20;

let database: Database;
const shops: (ShopProcess | undefined)[] = [undefined, undefined, undefined];
let haproxy: { child: ChildProcess; events: string[] } | undefined;

async function admin(statement: string) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  await client.query(statement).finally(() => client.end());
}

const dataDirOf = (i: number) => path.join(TEST_DATA_DIR, `lb-${ports[i]}`);
const start = (i: number) =>
  startShop({
    port: ports[i] as number,
    dataDir: dataDirOf(i),
    env: {
      DATABASE_URL: databaseUrl,
      PUBLIC_URL: lbUrl,
      // Every interface, as in production (docs/deploy.md); HAProxy is at 127.0.0.1.
      HOST: "0.0.0.0",
      TRUST_PROXY: "127.0.0.1",
      AUTH_RATE_LIMIT_PER_MINUTE: String(AUTH_LIMIT),
      METRICS_PORT: String(metricsPorts[i]),
      SHUTDOWN_GRACE_SECONDS: String(GRACE_SECONDS),
    },
  });

/** HAProxy with docs/haproxy.cfg, on the instances in `servers` (others point at a closed port). */
async function startHaproxy(servers: number[]) {
  const closed = await freePort();
  const address = (i: number) => `127.0.0.1:${servers.includes(i) ? ports[i] : closed}`;
  const child = spawn("haproxy", ["-db", "-f", path.join(REPO_ROOT, "docs/haproxy.cfg")], {
    env: {
      ...process.env,
      GEARHOUSE_LISTEN: `127.0.0.1:${lbPort}`,
      GEARHOUSE_SHOP_1: address(0),
      GEARHOUSE_SHOP_2: address(1),
      GEARHOUSE_SHOP_3: address(2),
    },
  });
  // Its request log is left out; what the test waits for are the servers' state changes.
  const events: string[] = [];
  let rest = "";
  const keep = (c: Buffer) => {
    const lines = (rest + c.toString()).split("\n");
    rest = lines.pop() ?? "";
    for (const line of lines) if (/Server shops\/shop\d is |ALERT/.test(line)) events.push(line);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  haproxy = { child, events };
  await until("HAProxy to answer", async () => {
    if (child.exitCode !== null)
      throw new Error(`HAProxy exited (${child.exitCode}) on 127.0.0.1:${lbPort}:\n${events.join("\n")}`);
    try {
      return (await fetch(`${lbUrl}/readyz`)).status === 200;
    } catch {
      return false;
    }
  });
  for (const i of [0, 1, 2].filter((i) => !servers.includes(i)))
    await until(`shop${i + 1} to be down in HAProxy`, () => seen(`shops/shop${i + 1} is DOWN`, 0));
}

async function stopHaproxy() {
  const child = haproxy?.child;
  haproxy = undefined;
  if (!child || child.exitCode !== null) return;
  const exited = new Promise((r) => child.once("exit", r));
  child.kill("SIGTERM");
  await exited;
}

/** Whether HAProxy has said `what` of a server since its event number `since`. */
const seen = (what: string, since: number) =>
  haproxy?.events.slice(since).some((e) => e.includes(what)) ?? false;
/** HAProxy's count of server events so far: a mark to wait from. */
const mark = () => haproxy?.events.length ?? 0;

/** Waits until HAProxy has had instance `i` down and up again since the event number `since`. */
const upAgain = (i: number, since: number) =>
  until(`shop${i + 1} to be down and up again in HAProxy`, () => {
    const events = haproxy?.events.slice(since) ?? [];
    const down = events.findIndex((e) => e.includes(`shops/shop${i + 1} is DOWN`));
    return down >= 0 && events.slice(down).some((e) => e.includes(`shops/shop${i + 1} is UP`));
  });

beforeAll(async () => {
  await admin(`create database ${dbName}`);
  database = createDatabase(databaseUrl, { max: 3 });
  // The first migrates; the others start on a migrated database.
  shops[0] = await start(0);
  [shops[1], shops[2]] = await Promise.all([start(1), start(2)]);
  await startHaproxy([0, 1, 2]);
}, 300_000);

afterAll(async () => {
  await stopHaproxy();
  await Promise.all(shops.map((s) => s?.stop()));
  await database?.close();
  await admin(`drop database if exists ${dbName} with (force)`);
  for (const i of [0, 1, 2]) rmSync(dataDirOf(i), { recursive: true, force: true });
});

interface LoadResult {
  /** Requests that did not get their answer (a network error or a 5xx), with when. */
  failures: { at: number; what: string }[];
  /** Each order's Idempotency-Key and the id the shop answered for it. */
  orders: Map<string, string>;
  requests: number;
}

/**
 * Customers through the balancer, back to back until `stop()`: a product page read, then an order
 * with an Idempotency-Key; a failed order is sent again with the same key until it is answered.
 */
function steadyLoad(client: ShopClient, customers: Customer[], productId: string) {
  const result: LoadResult = { failures: [], orders: new Map(), requests: 0 };
  let running = true;
  const attempt = async <R extends { status: number }>(
    what: string,
    send: () => Promise<R>,
  ): Promise<R | undefined> => {
    result.requests++;
    try {
      const res = await send();
      if (res.status >= 500) result.failures.push({ at: performance.now(), what: `${what} ${res.status}` });
      return res;
    } catch (error) {
      result.failures.push({ at: performance.now(), what: `${what} ${(error as Error).message}` });
      return undefined;
    }
  };
  const worker = async (customer: Customer) => {
    while (running) {
      await attempt("GET /api/products", () => client.request("GET", `/api/products/${productId}`));
      const key = randomUUID();
      for (;;) {
        const res = await attempt("POST /api/orders", () =>
          client.placeOrder(customer, productId, 10, { "idempotency-key": key }),
        );
        if (res?.status === 201) {
          result.orders.set(key, res.json<{ id: string }>().id);
          break;
        }
        if (res && res.status < 500) throw new Error(`order refused: ${res.status}`);
      }
    }
  };
  const workers = customers.map(worker);
  return {
    result,
    async stop() {
      running = false;
      await Promise.all(workers);
      return result;
    },
  };
}

/** Four new customers ordering a new product through the balancer, their orders flowing. */
async function flowingLoad(name: string) {
  const client = new ShopClient(lbUrl);
  const customers = await Promise.all([0, 1, 2, 3].map((i) => client.signUp(`${name} ${i}`)));
  const productId = await stockedProduct(database.db, 10_000_000);
  const load = steadyLoad(client, customers, productId);
  await until("orders to flow", () => load.result.orders.size >= 20);
  return { client, customers, load };
}

/** Every acknowledged order is in the database once, and the database holds no other of theirs. */
async function expectEachOrderOnce(result: LoadResult, emails: string[]) {
  const ids = [...result.orders.values()];
  expect(new Set(ids).size).toBe(ids.length);
  const rows = await database.db.execute<{ id: string }>(
    sql`select id from "order" where email in (${sql.join(
      emails.map((e) => sql`${e}`),
      sql`, `,
    )})`,
  );
  expect(rows.rows.map((r) => r.id).sort()).toEqual(ids.sort());
}

describe("three instances behind HAProxy", () => {
  beforeEach(() => showOutputOnFailure(() => shops));

  it("wrong sign-ins through HAProxy, each claiming its own X-Forwarded-For, meet the limit of the address they come from", async () => {
    // The window starts with the first guess: sign-ups of other tests (also from 127.0.0.1) are forgotten.
    const forget = () => database.db.delete(rateLimits).where(like(rateLimits.key, "auth:%"));
    await forget();
    const client = new ShopClient(lbUrl);
    const statuses: number[] = [];
    try {
      for (let i = 1; i <= AUTH_LIMIT + 1; i++) {
        // Each guess at another account, so only the per-address limit can stop them.
        const res = await client.request("POST", "/api/auth/sign-in/email", {
          body: { email: `guess-${i}-${randomUUID()}@example.com`, password: "Wrong0ne!" },
          headers: { "x-forwarded-for": `10.9.${i}.1` },
        });
        statuses.push(res.status);
      }
    } finally {
      client.close();
      await forget();
    }
    expect(statuses).toEqual([...Array(AUTH_LIMIT).fill(401), 429]);
  });

  it("the metrics ports listen on loopback only, though the shop listens on every interface", async () => {
    // 127.0.0.2 is loopback too, but only a server on every interface (or on it) answers there.
    const status = (url: string) =>
      fetch(url).then(
        (r) => r.status,
        (e: Error & { cause?: { code?: string } }) => e.cause?.code ?? e.message,
      );
    for (const i of [0, 1, 2]) {
      expect(await status(`http://127.0.0.2:${ports[i]}/healthz`)).toBe(200);
      expect(await status(`http://127.0.0.1:${metricsPorts[i]}/metrics`)).toBe(200);
      expect(await status(`http://127.0.0.2:${metricsPorts[i]}/metrics`)).toBe("ECONNREFUSED");
    }
  });

  it("a rolling restart of all three under steady load: no request fails, no order is lost or doubled", async () => {
    const { client, customers, load } = await flowingLoad("Rolling");
    const restarts: number[] = [];
    for (const i of [0, 1, 2]) {
      const began = performance.now();
      const since = mark();
      expect(await shops[i]?.stop()).toBe(0);
      shops[i] = await start(i);
      await upAgain(i, since);
      restarts.push(Math.round(performance.now() - began));
      await until("orders to flow on", () => load.result.orders.size >= 20 * (i + 2));
    }
    const result = await load.stop();
    client.close();
    recordResults("load balancer: rolling restart", {
      requests: result.requests,
      orders: result.orders.size,
      failures: result.failures.length,
      restartMs: restarts,
    });
    expect(result.failures).toEqual([]);
    await expectEachOrderOnce(
      result,
      customers.map((c) => c.email),
    );
  });

  it("an instance killed with SIGKILL: only what was in flight on it fails, within the health checks' time, and retried orders are placed once", async () => {
    const { client, customers, load } = await flowingLoad("Killed");
    const since = mark();
    const killedAt = performance.now();
    await shops[1]?.kill();
    await until("HAProxy to take it out", () => seen("shops/shop2 is DOWN", since));
    const outAfterMs = Math.round(performance.now() - killedAt);
    const count = load.result.orders.size;
    await until("orders to flow on two", () => load.result.orders.size >= count + 20);
    const result = await load.stop();
    client.close();
    const window = result.failures.length ? Math.round((result.failures.at(-1)?.at ?? 0) - killedAt) : 0;
    recordResults("load balancer: SIGKILL", {
      requests: result.requests,
      orders: result.orders.size,
      failures: result.failures.length,
      lastFailureAfterKillMs: window,
      downInHaproxyAfterMs: outAfterMs,
      failed: result.failures.map((f) => f.what),
    });
    // Failures, if any, came from the moment of the kill, no later than HAProxy took it out.
    for (const failure of result.failures) expect(failure.at).toBeGreaterThanOrEqual(killedAt);
    expect(window).toBeLessThanOrEqual(outAfterMs + 500);
    await expectEachOrderOnce(
      result,
      customers.map((c) => c.email),
    );
    shops[1] = await start(1);
    await until("shop2 to be up again in HAProxy", () => seen("shops/shop2 is UP", since));
  });

  it.runIf(STRESS)("throughput with 1, 2 and 3 instances (docs/scaling.md)", async () => {
    const figures: Record<string, number> = {};
    for (const n of [1, 2, 3]) {
      await stopHaproxy();
      await startHaproxy([0, 1, 2].slice(0, n));
      const out = execFileSync("wrk", ["-t", "1", "-c", "32", "-d", "8s", `${lbUrl}/api/products`], {
        encoding: "utf8",
      });
      figures[`${n} instance${n > 1 ? "s" : ""} (req/s)`] = Number(
        /Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? 0,
      );
    }
    recordResults("load balancer: throughput", figures);
    expect(Object.values(figures).every((v) => v > 0)).toBe(true);
    await stopHaproxy();
    await startHaproxy([0, 1, 2]);
  });
});

describe("docs/haproxy.cfg", () => {
  it("passes on the client's address as X-Forwarded-For, in place of the one the client wrote, and its own X-Request-Id", async () => {
    // Instances that answer /readyz and keep the headers each request reached them with.
    const seen: http.IncomingHttpHeaders[] = [];
    const echo = http.createServer((req, res) => {
      if (req.url !== "/readyz") seen.push(req.headers);
      res.writeHead(200, { "content-type": "application/json" }).end('{"status":"ready"}');
    });
    await new Promise<void>((resolve) => echo.listen(0, "127.0.0.1", resolve));
    const backend = `127.0.0.1:${(echo.address() as AddressInfo).port}`;
    const port = await freePort();
    const child = spawn("haproxy", ["-db", "-f", path.join(REPO_ROOT, "docs/haproxy.cfg")], {
      stdio: "ignore",
      env: {
        ...process.env,
        GEARHOUSE_LISTEN: `127.0.0.1:${port}`,
        GEARHOUSE_SHOP_1: backend,
        GEARHOUSE_SHOP_2: backend,
        GEARHOUSE_SHOP_3: backend,
      },
    });
    const exited = new Promise((resolve) => child.once("exit", resolve));
    try {
      await until("HAProxy to pass a request on", async () => {
        if (child.exitCode !== null) throw new Error(`HAProxy exited (${child.exitCode})`);
        try {
          return (await fetch(`http://127.0.0.1:${port}/readyz`)).status === 200;
        } catch {
          return false;
        }
      });
      seen.length = 0;
      const res = await fetch(`http://127.0.0.1:${port}/api/products`, {
        headers: { "x-forwarded-for": "10.9.1.1, 10.9.2.1", "x-request-id": "chosen-by-the-client" },
      });
      expect(res.status).toBe(200);
      expect(seen).toHaveLength(1);
      expect(seen[0]?.["x-forwarded-for"]).toBe("127.0.0.1");
      expect(seen[0]?.["x-request-id"]).not.toBe("chosen-by-the-client");
    } finally {
      child.kill("SIGTERM");
      await exited;
      await new Promise((resolve) => echo.close(resolve));
    }
  });
});
