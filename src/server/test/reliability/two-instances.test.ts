import { randomBytes } from "node:crypto";
import { rmSync } from "node:fs";
import path from "node:path";
import { inArray, sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from "vitest";
import type { Order, OrderPage } from "../../../shared/orders.js";
import { createDatabase, type Database } from "../../db/client.js";
import { products, users } from "../../db/schema/index.js";
import { demoProducts } from "../../db/seed/demo-catalog.js";
import { DEMO_ACCOUNTS } from "../../features/accounts/setup.js";
import { stockedProduct } from "../products.js";
import { signedInCrowd } from "./crowd.js";
import { FIGURES, recordResults, TEST_DATA_DIR } from "./figures.js";
import { sellOutRounds, UNITS_PER_ORDER } from "./oversell-round.js";
import { ShopClient } from "./shop-client.js";
import { freePort, type ShopProcess, showOutputOnFailure, startShop } from "./shop-process.js";

// Two instances (docs/scaling.md): two shop processes on one PostgreSQL, as behind a load balancer.
// They start together on an empty database, so both race to migrate and seed it.

const adminUrl = inject("testDatabaseAdminUrl");
const dbName = `r_${randomBytes(6).toString("hex")}`;
const databaseUrl = Object.assign(new URL(adminUrl), { pathname: `/${dbName}` }).toString();

async function admin(statement: string) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  await client.query(statement).finally(() => client.end());
}

const ports = [await freePort(), await freePort()];
const dataDirOf = (port: number) => path.join(TEST_DATA_DIR, `instance-${port}`);
let database: Database;
const shops: ShopProcess[] = [];
let a: ShopClient;
let b: ShopClient;

beforeAll(async () => {
  await admin(`create database ${dbName}`);
  database = createDatabase(databaseUrl, { max: 3 });
  // One address for both, as a load balancer in front of them would give.
  const publicUrl = `http://127.0.0.1:${ports[0]}`;
  const started = await Promise.allSettled(
    ports.map((port) =>
      startShop({
        port,
        dataDir: dataDirOf(port),
        env: { DATABASE_URL: databaseUrl, PUBLIC_URL: publicUrl, SEED_DEMO: "true" },
      }),
    ),
  );
  for (const s of started) if (s.status === "fulfilled") shops.push(s.value);
  const failed = started.find((s) => s.status === "rejected");
  if (failed) throw failed.reason;
  a = new ShopClient(shops[0]?.url ?? "", publicUrl);
  b = new ShopClient(shops[1]?.url ?? "", publicUrl);
}, 300_000);

afterAll(async () => {
  a?.close();
  b?.close();
  await Promise.all(shops.map((s) => s.stop()));
  await database?.close();
  await admin(`drop database if exists ${dbName} with (force)`);
  for (const port of ports) rmSync(dataDirOf(port), { recursive: true, force: true });
});

beforeEach(() => showOutputOnFailure(() => shops));

describe("two instances on one database", () => {
  it("both start on an empty database, which they migrate and seed exactly once", async () => {
    const [catalog] = await database.db.select({ n: sql<number>`count(*)::int` }).from(products);
    expect(catalog?.n).toBe(demoProducts.length);
    const demo = await database.db
      .select({ email: users.email, role: users.role })
      .from(users)
      .where(
        inArray(
          users.email,
          DEMO_ACCOUNTS.map((d) => d.email),
        ),
      );
    expect(demo).toHaveLength(DEMO_ACCOUNTS.length);
    for (const account of DEMO_ACCOUNTS) {
      expect(demo.find((d) => d.email === account.email)?.role).toBe(account.role);
    }
  });

  it("accepts a session made on one instance on the other, and ends it on both at sign-out", async () => {
    const customer = await a.signUp("Session Traveller");
    const onB = await b.request("GET", "/api/me", { cookie: customer.cookie });
    expect(onB.status).toBe(200);
    expect(onB.json<{ email: string }>().email).toBe(customer.email);

    const out = await b.request("POST", "/api/auth/sign-out", { cookie: customer.cookie, body: {} });
    expect(out.status).toBe(200);
    expect((await a.request("GET", "/api/me", { cookie: customer.cookie })).status).toBe(401);
  });

  it("shows an order placed on one instance on the other", async () => {
    const customer = await b.signUp("Order Traveller");
    const productId = await stockedProduct(database.db, 100);
    const placed = await b.placeOrder(customer, productId, UNITS_PER_ORDER);
    expect(placed.status).toBe(201);
    const order = placed.json<Order>();
    const mine = await a.request("GET", "/api/orders/mine", { cookie: customer.cookie });
    expect(mine.json<OrderPage>().items.map((o) => o.id)).toEqual([order.id]);
    const one = await a.request("GET", `/api/orders/${order.id}`, { cookie: customer.cookie });
    expect(one.status).toBe(200);
    expect(one.json<Order>()).toEqual(order);
  });

  it(
    `never oversells with ${FIGURES.buyers} buyers split across both instances`,
    async () => {
      const buyers = await signedInCrowd(databaseUrl, FIGURES.buyers);
      const split = buyers.map((customer, i) => ({ customer, client: i % 2 ? a : b }));
      const run = await sellOutRounds(database.db, FIGURES.splitOversellRounds, split);
      recordResults("12 two instances, one database", {
        instances: shops.length,
        startMs: shops.map((s) => s.startMs),
        ...run,
      });
    },
    180_000 + FIGURES.splitOversellRounds * 60_000,
  );
});
