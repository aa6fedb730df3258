import { rmSync } from "node:fs";
import path from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import type { Order } from "../../../shared/orders.js";
import { runningPostmaster } from "../../db/embedded.js";
import { stockedProduct } from "../products.js";
import { FIGURES, recordResults, seededRandom, TEST_DATA_DIR } from "./figures.js";
import { type Customer, ShopClient, signUpCustomers } from "./shop-client.js";
import {
  freePort,
  type ShopProcess,
  shopPlace,
  showOutputOnFailure,
  startShop,
  stopLeftoverPostgres,
} from "./shop-process.js";
import { productLedger, withDatabase } from "./stock.js";

// Crash safety (README.md, Guarantees): the shop process, with its own embedded PostgreSQL, is
// SIGKILLed at random moments while customers place orders. Odd kills hit the shop alone (its
// postgres child survives as an orphan holding the port); even kills also hit that postgres (it
// leaves a stale postmaster.pid). Every restart must recover by itself and keep every acknowledged
// order.

const START_STOCK = 10_000_000;
const BUYERS = 12;
const LOAD_WORKERS = 8;

const place = await shopPlace("crash");
const { dataDir, pgDir } = place;
const start = () => place.start({ env: { SEED_DEMO: "true" } });

/** The shops and data directories a test made, removed when it ends, passed or failed. */
function cleanUpAfterTest(dirs: string[], shops: () => (ShopProcess | undefined)[]) {
  showOutputOnFailure(shops);
  onTestFinished(async () => {
    await Promise.all(shops().map((s) => s?.stop()));
    for (const dir of dirs) {
      await stopLeftoverPostgres(dir);
      rmSync(dir, { recursive: true, force: true });
    }
  });
}

interface Load {
  attempts: number;
  acknowledged: number;
  /** Answers other than 201 while the shop was up: there should be none. */
  refused: number;
  connectionErrors: number;
}

/**
 * Customers order without pause until the shop dies under them; every 201 goes into `acked`.
 * Each worker stops at its first failed connection.
 */
function orderLoad(
  shopClient: ShopClient,
  customers: Customer[],
  productId: string,
  acked: Map<string, number>,
): Promise<Load> {
  const load: Load = { attempts: 0, acknowledged: 0, refused: 0, connectionErrors: 0 };
  const worker = async () => {
    for (;;) {
      const customer = customers[Math.floor(Math.random() * customers.length)] as Customer;
      const quantity = 10 + Math.floor(Math.random() * 10);
      load.attempts += 1;
      try {
        const reply = await shopClient.placeOrder(customer, productId, quantity);
        if (reply.status === 201) {
          acked.set(reply.json<Order>().id, quantity);
          load.acknowledged += 1;
        } else load.refused += 1;
      } catch {
        load.connectionErrors += 1;
        return;
      }
    }
  };
  return Promise.all(Array.from({ length: LOAD_WORKERS }, worker)).then(() => load);
}

async function audit(productId: string, acked: Map<string, number>) {
  const ledger = await withDatabase(place.databaseUrl, (db) => productLedger(db, productId));
  const present = ledger.orders;
  return {
    acknowledged: acked.size,
    present: present.size,
    missing: [...acked.keys()].filter((id) => !present.has(id)),
    wrongQuantity: [...acked].filter(([id, q]) => present.has(id) && present.get(id) !== q).length,
    stock: ledger.stock,
    orderedUnits: ledger.orderedUnits,
  };
}

describe("crash safety", () => {
  it(
    `keeps every acknowledged order and the stock through ${FIGURES.kills} SIGKILLs during order placement`,
    async () => {
      let shop: ShopProcess | undefined;
      let client: ShopClient | undefined;
      cleanUpAfterTest([dataDir], () => [shop]);
      onTestFinished(() => client?.close());
      await stopLeftoverPostgres(dataDir);
      rmSync(dataDir, { recursive: true, force: true });
      // The moments of the kills come from a seed printed with the results, to replay a failing run.
      const random = seededRandom();
      const killDelaysMs = Array.from({ length: FIGURES.kills }, () =>
        Math.round(300 + random.next() * 1_200),
      );
      shop = await start();
      const firstStartMs = shop.startMs;
      client = new ShopClient(shop.url);
      const customers = await signUpCustomers(client, BUYERS);
      const productId = await withDatabase(place.databaseUrl, (db) => stockedProduct(db, START_STOCK));
      const acked = new Map<string, number>();
      const cycles: Record<string, unknown>[] = [];

      for (let kill = 1; kill <= FIGURES.kills; kill += 1) {
        const withDatabase = kill % 2 === 0;
        const loading = orderLoad(client, customers, productId, acked);
        const killAfterMs = killDelaysMs[kill - 1] ?? 0;
        await new Promise((r) => setTimeout(r, killAfterMs));
        await shop.kill({ database: withDatabase });
        const load = await loading;
        client.close();
        // The scenario really happened: an orphan after a kill of the shop alone, none otherwise.
        expect(runningPostmaster(pgDir) !== undefined, `orphaned postgres after kill ${kill}`).toBe(
          !withDatabase,
        );

        shop = await start();
        client = new ShopClient(shop.url);
        const recovery = withDatabase
          ? "Removed the stale postmaster.pid"
          : "Stopping the embedded PostgreSQL";
        expect(shop.output(), `restart ${kill}`).toContain(recovery);
        const check = await audit(productId, acked);
        cycles.push({
          kill,
          killed: withDatabase ? "shop and its postgres" : "shop (postgres orphaned)",
          killAfterMs,
          attempts: load.attempts,
          acknowledgedThisCycle: load.acknowledged,
          refused: load.refused,
          restartMs: shop.startMs,
          acknowledgedTotal: check.acknowledged,
          presentTotal: check.present,
          missing: check.missing.length,
          stockPlusOrderedUnits: check.stock + check.orderedUnits,
        });
        expect(load.refused, `non-201 answers before kill ${kill}`).toBe(0);
        expect(check.missing, `acknowledged orders missing after kill ${kill}`).toEqual([]);
        expect(check.wrongQuantity).toBe(0);
        expect(check.stock + check.orderedUnits).toBe(START_STOCK);
      }

      // Still serving after the last restart, and stopping cleanly with its database.
      expect((await client.placeOrder(customers[0] as Customer, productId, 10)).status).toBe(201);
      client.close();
      client = undefined;
      expect(await shop.stop()).toBe(0);
      shop = undefined;
      expect(runningPostmaster(pgDir)).toBeUndefined();

      const total = cycles.at(-1) ?? {};
      recordResults("11 crash safety", {
        seed: random.seed,
        kills: cycles.length,
        firstStartMs,
        acknowledged: total.acknowledgedTotal,
        presentAfterRestarts: total.presentTotal,
        missing: cycles.reduce((sum, c) => sum + Number(c.missing), 0),
        stockPlusOrderedUnits: total.stockPlusOrderedUnits,
        startingStock: START_STOCK,
        cycles,
      });
    },
    180_000 + FIGURES.kills * 90_000,
  );

  it("refuses to start on the data directory of a running shop, and leaves its PostgreSQL alone", async () => {
    const ports = [await freePort(), await freePort()];
    const pgPorts = [await freePort(), await freePort()];
    const sharedDir = path.join(TEST_DATA_DIR, `crash-owner-${ports[0]}`);
    const shops: ShopProcess[] = [];
    cleanUpAfterTest([sharedDir], () => shops);
    rmSync(sharedDir, { recursive: true, force: true });
    shops.push(
      await startShop({
        port: ports[0] as number,
        dataDir: sharedDir,
        env: { EMBEDDED_PG_PORT: String(pgPorts[0]) },
      }),
    );
    const postmaster = runningPostmaster(path.join(sharedDir, "postgres"));
    expect(postmaster).toBeDefined();

    await expect(
      startShop({
        port: ports[1] as number,
        dataDir: sharedDir,
        env: { EMBEDDED_PG_PORT: String(pgPorts[1]) },
      }),
    ).rejects.toThrow(/already in use by a running Gearhouse process/);
    expect(runningPostmaster(path.join(sharedDir, "postgres"))).toBe(postmaster);
    expect((await fetch(`${shops[0]?.url}/readyz`)).status).toBe(200);
  });
});
