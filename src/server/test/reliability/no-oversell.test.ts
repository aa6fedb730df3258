import { rmSync } from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { orderMessages } from "../../../shared/messages/orders.js";
import type { Order } from "../../../shared/orders.js";
import { createDatabase, type Database } from "../../db/client.js";
import { orders, products } from "../../db/schema/index.js";
import { createTestDatabase } from "../app.js";
import { stockedProduct } from "../products.js";
import { signedInCrowd } from "./crowd.js";
import { FIGURES, recordResults, TEST_DATA_DIR } from "./figures.js";
import { sellOutRounds, UNITS_PER_ORDER } from "./oversell-round.js";
import { type Customer, ShopClient } from "./shop-client.js";
import { freePort, type ShopProcess, showOutputOnFailure, startShop } from "./shop-process.js";

// No oversell and Idempotency (README.md, Guarantees) over real HTTP: a shop process listening on a
// port, many connections at once. The in-process variants are in features/orders/routes.test.ts.

let testDb: Awaited<ReturnType<typeof createTestDatabase>>;
let database: Database;
let shop: ShopProcess | undefined;
let client: ShopClient;
let buyers: Customer[];
const port = await freePort();
const dataDir = path.join(TEST_DATA_DIR, `oversell-${port}`);

beforeAll(async () => {
  testDb = await createTestDatabase();
  database = createDatabase(testDb.url, { max: 3 });
  shop = await startShop({
    port,
    dataDir,
    env: { DATABASE_URL: testDb.url },
  });
  client = new ShopClient(shop.url);
  buyers = await signedInCrowd(testDb.url, FIGURES.buyers);
}, 300_000);

afterAll(async () => {
  client?.close();
  await shop?.stop();
  await database?.close();
  await testDb?.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

beforeEach(() => showOutputOnFailure(() => [shop]));

describe("no oversell over HTTP", () => {
  it(
    `sells exactly the stock to ${FIGURES.buyers} buyers at once, round after round, and refuses the rest with a clean 409`,
    async () => {
      const run = await sellOutRounds(
        database.db,
        FIGURES.oversellRounds,
        buyers.map((customer) => ({ customer, client })),
      );
      recordResults("8 no oversell (one instance, HTTP)", run);
    },
    180_000 + FIGURES.oversellRounds * 60_000,
  );
});

describe("Idempotency-Key over HTTP", () => {
  it("makes one order for a key sent ten times at once, with identical bodies, and refuses it with another body", async () => {
    const productId = await stockedProduct(database.db, 1_000);
    const customer = buyers[0] as Customer;
    const key = `reliability-${productId}`;
    const replies = await Promise.all(
      Array.from({ length: 10 }, () =>
        client.placeOrder(customer, productId, UNITS_PER_ORDER, { "idempotency-key": key }),
      ),
    );
    expect(replies.map((r) => r.status)).toEqual(Array(10).fill(201));
    expect(new Set(replies.map((r) => r.text)).size).toBe(1);
    expect(replies.filter((r) => r.headers["idempotent-replayed"] === "true")).toHaveLength(9);

    const other = await client.placeOrder(customer, productId, 2 * UNITS_PER_ORDER, {
      "idempotency-key": key,
    });
    expect(other.status).toBe(422);
    expect(other.headers["content-type"]).toMatch(/^application\/problem\+json/);
    expect(other.json<{ detail: string }>().detail).toBe(orderMessages.idempotencyMismatch);

    const made = await database.db.select().from(orders).where(eq(orders.productId, productId));
    expect(made.map((o) => o.id)).toEqual([replies[0]?.json<Order>().id]);
    const [product] = await database.db.select().from(products).where(eq(products.id, productId));
    expect(product?.quantity).toBe(1_000 - UNITS_PER_ORDER);
    recordResults("9 idempotency (HTTP)", {
      simultaneousRequests: replies.length,
      created201: replies.filter((r) => r.status === 201).length,
      distinctBodies: new Set(replies.map((r) => r.text)).size,
      ordersInDatabase: made.length,
      sameKeyOtherBody: other.status,
    });
  });
});
