import { rmSync } from "node:fs";
import { eq } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { createDatabase } from "../../db/client.js";
import { processInfo, runningPostmaster } from "../../db/embedded.js";
import { orders } from "../../db/schema/index.js";
import { stockedProduct } from "../products.js";
import { rawConnection } from "../raw-connection.js";
import { until } from "../until.js";
import { ShopClient } from "./shop-client.js";
import { type ShopProcess, shopPlace, showOutputOnFailure, stopLeftoverPostgres } from "./shop-process.js";

// The shop with its own embedded PostgreSQL is stopped the three ways a shop is stopped: SIGTERM
// from a supervisor, SIGINT (Ctrl+C), and the death of the process that launched it. Each time it
// answers what it has in flight, then closes its pool and the PostgreSQL it started, and exits 0.
// While it drains, every answer closes its connection, so it exits as soon as its last request is
// answered; only a request still running at its forced limit (grace + 10 s) makes it exit 1, logged.

const place = await shopPlace("stop");
const { port, dataDir, pgDir } = place;
let shop: ShopProcess | undefined;
const start = (launcher = false) => place.start({ launcher });

afterAll(async () => {
  await shop?.stop();
  await stopLeftoverPostgres(dataDir);
  rmSync(dataDir, { recursive: true, force: true });
});

const refusesConnections = () =>
  fetch(`http://127.0.0.1:${port}/healthz`).then(
    () => false,
    () => true,
  );

/** A request held inside the shop: an order waiting on its product's row, locked here until `release`. */
async function heldOrder(
  client: ShopClient,
  headers: Record<string, string> = {},
): Promise<{ answer: ReturnType<ShopClient["placeOrder"]>; release(): Promise<void> }> {
  const database = createDatabase(place.databaseUrl, { max: 1 });
  const productId = await stockedProduct(database.db, 100);
  await database.close();
  const customer = await client.signUp("Held Buyer");
  const locker = new pg.Client({ connectionString: place.databaseUrl });
  // Ended by the shop's stop if the test fails before it lets go: not an error of the run.
  locker.on("error", () => {});
  await locker.connect();
  await locker.query("begin");
  await locker.query("select 1 from product where id = $1 for update", [productId]);
  const answer = client.placeOrder(customer, productId, 10, headers);
  await until("the order to wait on the row lock", async () => {
    const waiting = await locker.query(
      "select count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock' and pid <> pg_backend_pid()",
    );
    return waiting.rows[0].n > 0;
  });
  return {
    answer,
    release: async () => {
      await locker.query("commit").catch(() => {});
      await locker.end().catch(() => {});
    },
  };
}

describe("stopping the shop", () => {
  beforeEach(() => showOutputOnFailure(() => [shop]));

  it("SIGTERM with an order in flight: the order is answered and kept, then the shop exits 0 and its PostgreSQL stops", async () => {
    shop = await start();
    const client = new ShopClient(shop.url);
    // The product's row stays locked, so the order waits inside the shop until the lock goes.
    const held = await heldOrder(client);

    const stopped = shop.stop();
    await until("the shop to take the signal", () => shop?.output().includes("SIGTERM received") ?? false);
    await until("the shop to refuse new connections", refusesConnections);
    expect(runningPostmaster(pgDir), "PostgreSQL waits for the requests in flight").toBeDefined();

    await held.release();
    const answer = await held.answer;
    expect(answer.status, answer.text).toBe(201);
    const { id } = answer.json<{ id: string }>();
    client.close();

    expect(await stopped).toBe(0);
    expect(runningPostmaster(pgDir)).toBeUndefined();

    // The acknowledged order is there after a restart.
    shop = await start();
    const again = createDatabase(place.databaseUrl, { max: 1 });
    const rows = await again.db.select({ id: orders.id }).from(orders).where(eq(orders.id, id));
    await again.close();
    expect(rows).toHaveLength(1);
  });

  it("SIGTERM with SHUTDOWN_GRACE_SECONDS: /readyz answers 503 at once, the rest is served through the grace, then the shop exits 0", async () => {
    await shop?.stop();
    shop = await place.start({ env: { SHUTDOWN_GRACE_SECONDS: "5" } });
    const get = (url: string) =>
      fetch(`${shop?.url}${url}`).then(async (r) => ({ status: r.status, body: await r.text() }));
    expect((await get("/readyz")).status).toBe(200);
    const stopped = shop.stop();
    await until("the shop to start draining", () => shop?.output().includes("Draining") ?? false);
    const ready = await get("/readyz");
    expect(ready.status).toBe(503);
    expect(JSON.parse(ready.body)).toEqual({ status: "unavailable", detail: "shutting down" });
    // Still serving while the balancer takes the instance out: pages, the API, liveness.
    expect((await get("/healthz")).status).toBe(200);
    expect((await get("/api/products")).status).toBe(200);
    expect(runningPostmaster(pgDir)).toBeDefined();
    expect(await stopped).toBe(0);
    await until("the shop to close its port", refusesConnections);
    expect(runningPostmaster(pgDir)).toBeUndefined();
    shop = undefined;
  });

  it("SIGTERM with a grace, kept-alive connections and an order held past it: answers say Connection: close, and the shop exits 0 once the order is answered", async () => {
    shop = await place.start({ env: { SHUTDOWN_GRACE_SECONDS: "2" } });
    const client = new ShopClient(shop.url);
    const balancer = rawConnection(Number(new URL(shop.url).port));
    expect((await balancer.send("GET", "/healthz")).headers.connection).toBe("keep-alive");
    const held = await heldOrder(client);

    const stopped = shop.stop();
    await until("the shop to start draining", () => shop?.output().includes("Draining") ?? false);
    // During the grace, on the connection kept alive since before the signal: still served, but
    // the answer closes it, from the shop's side.
    const last = await balancer.send("GET", "/healthz");
    expect([last.status, last.headers.connection]).toEqual([200, "close"]);
    await balancer.endedByServer();
    // The grace over, the server closes while the order still waits.
    await until("the shop to refuse new connections", refusesConnections);
    expect(shop.output()).not.toContain("Every request is answered");

    await held.release();
    const answer = await held.answer;
    expect(answer.status, answer.text).toBe(201);
    expect(answer.headers.connection).toBe("close");
    // The client keeps its connection pool open: the shop closes the order's connection itself,
    // and exits 0 because its last request was answered, not at its limit (that is exit 1).
    expect(await stopped).toBe(0);
    expect(shop.output()).toContain("Every request is answered and the server closed.");
    expect(shop.output()).not.toContain("Stopped at the limit");
    client.close();
    shop = undefined;
  });

  it("a request still running at the forced limit (grace + 10 s): the shop exits 1 and logs which it cut off", async () => {
    // The balancer's request id is kept (TRUST_PROXY names it), so the log line can be found by it.
    shop = await place.start({ env: { SHUTDOWN_GRACE_SECONDS: "1", TRUST_PROXY: "127.0.0.1" } });
    const client = new ShopClient(shop.url);
    const held = await heldOrder(client, { "x-request-id": "held-order-28" });
    held.answer.catch(() => {}); // cut off with the shop
    try {
      expect(await shop.stop()).toBe(1);
    } finally {
      await held.release();
      client.close();
    }
    const cut = shop
      .output()
      .split("\n")
      .filter((line) => line.includes("request cut off"))
      .map((line) => JSON.parse(line));
    expect(cut).toEqual([
      expect.objectContaining({ reqId: "held-order-28", method: "POST", route: "/api/orders", level: 50 }),
    ]);
    expect(shop.output()).toContain(
      "Stopped at the limit of 11 s: 1 request(s) still being answered were cut off",
    );
    shop = undefined;
    // The forced exit tells its PostgreSQL to stop without waiting for it: the next test starts afresh.
    await until("PostgreSQL to stop", () => runningPostmaster(pgDir) === undefined);
  });

  it("SIGINT (Ctrl+C): exit 0, PostgreSQL stopped after the shop; it runs in a process group of its own", async () => {
    shop ??= await start();
    const postmaster = runningPostmaster(pgDir);
    expect(postmaster).toBeDefined();
    // A terminal sends Ctrl+C to its foreground group: the shop's PostgreSQL is not in it.
    expect(processInfo(postmaster as number)?.group).not.toBe(processInfo(shop.pid)?.group);
    const stopped = shop.stop("SIGINT");
    expect(await stopped).toBe(0);
    expect(shop.output()).toContain("SIGINT received, shutting down.");
    expect(runningPostmaster(pgDir)).toBeUndefined();
    shop = undefined;
  });

  it("the launcher killed (npm start's npm, SIGKILL): the shop stops by itself, its PostgreSQL too", async () => {
    shop = await start(true);
    expect(runningPostmaster(pgDir)).toBeDefined();
    const launched = shop;
    await launched.kill();
    await until("the shop to stop after its launcher", () => launched.output().includes("shutting down"));
    await until("PostgreSQL to stop", () => runningPostmaster(pgDir) === undefined);
    await until("the shop to close its port", refusesConnections);
    expect(launched.output()).toMatch(
      /The process that started the shop \(pid \d+\) is gone, shutting down\./,
    );
    shop = undefined;
  });
});
