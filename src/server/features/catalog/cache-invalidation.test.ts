import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { eq, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Product, ProductList } from "../../../shared/catalog.js";
import { buildApp } from "../../app.js";
import { createDatabase, type Database } from "../../db/client.js";
import { products } from "../../db/schema/index.js";
import { createTestApp, type TestContext, testConfig } from "../../test/app.js";
import { setStockDirectly } from "../../test/products.js";
import { until } from "../../test/until.js";
import { ORIGIN, signUp, signUpAdmin, type TestUser } from "../../test/users.js";
import { CATALOG_CACHE_TTL_MS } from "./cache.js";
import { LISTENER_APPLICATION_NAME } from "./listener.js";

const ADMIN_EMAIL = "catalog.cache.admin@example.com";
const env = {};
const rateLimit = { max: 10_000, windowSeconds: 60 };

/** Instance A, with its own test database, and instance B: a second app on the same database. */
let a: TestContext;
let b: FastifyInstance;
let bDatabase: Database;
let customer: TestUser;
let admin: TestUser;

beforeAll(async () => {
  a = await createTestApp(env, { rateLimit });
  bDatabase = createDatabase(a.url, { max: 4 });
  b = await buildApp(testConfig(env), bDatabase, { logger: false, rateLimit });
  await b.ready();
  customer = await signUp(a.app, { name: "Cache Customer" });
  admin = await signUpAdmin(a.app, { email: ADMIN_EMAIL });
});
afterAll(async () => {
  await b?.close();
  await bDatabase?.close();
  await a?.close();
});

async function newProduct(name: string, quantity = 1_000): Promise<Product> {
  const [row] = await a.database.db
    .insert(products)
    .values({
      name,
      description: "A product of the cache tests.",
      image: "/media/products/cyclone-120-argb-pwm-fan.svg",
      price: 40,
      quantity,
      category: "cooling-fans",
    })
    .returning();
  if (!row) throw new Error("no product");
  return { ...row };
}

async function stockIn(app: FastifyInstance, id: string): Promise<{ detail: number; list: number }> {
  const detail = await app.inject({ url: `/api/products/${id}` });
  const list = await app.inject({ url: "/api/products?category=cooling-fans&pageSize=48" });
  const listed = (list.json() as ProductList).items.find((p) => p.id === id);
  return { detail: (detail.json() as Product).quantity, list: listed?.quantity ?? -1 };
}

function book(app: FastifyInstance, productId: string, quantity: number) {
  return app.inject({
    method: "POST",
    url: "/api/orders",
    headers: { cookie: customer.cookie, origin: ORIGIN },
    payload: { productId, quantity, address: "1 Loop Road, Austin", phone: "5550123" },
  });
}

interface Watched {
  /** When (ms after `since`) the first check that passed had its answer: an upper bound. */
  passedBy: number;
  /** When (ms after `since`) the last check that failed was sent: a lower bound of how stale it was. */
  lastFailedAt: number;
}

/**
 * Asks until `check` holds, and says when: these tests measure how soon a change shows. The limit
 * is only there so that something broken cannot hang the run (the bounds are the expectations).
 */
async function watch(
  what: string,
  since: number,
  check: () => Promise<boolean>,
  limitMs = 60_000,
): Promise<Watched> {
  let lastFailedAt = Number.NEGATIVE_INFINITY;
  while (Date.now() - since < limitMs) {
    const sentAt = Date.now() - since;
    if (await check()) return { passedBy: Date.now() - since, lastFailedAt };
    lastFailedAt = sentAt;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`Still waiting after ${limitMs} ms: ${what}`);
}

describe("ETag and 304", () => {
  it("sends the product list with a strong ETag and no-cache, and 304 when the client has it", async () => {
    const first = await a.app.inject({ url: "/api/products" });
    expect(first.statusCode).toBe(200);
    expect(first.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(first.headers["cache-control"]).toBe("no-cache");
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^"[^"]+"$/);

    const again = await a.app.inject({ url: "/api/products" });
    expect(again.headers.etag).toBe(etag);
    expect(again.body).toBe(first.body);

    for (const ifNoneMatch of [etag, `W/${etag}`, `"other", ${etag}`, "*"]) {
      const revalidated = await a.app.inject({
        url: "/api/products",
        headers: { "if-none-match": ifNoneMatch },
      });
      expect(revalidated.statusCode, ifNoneMatch).toBe(304);
      expect(revalidated.body).toBe("");
      expect(revalidated.headers.etag).toBe(etag);
      expect(revalidated.headers["cache-control"]).toBe("no-cache");
    }
    const stale = await a.app.inject({ url: "/api/products", headers: { "if-none-match": '"other"' } });
    expect(stale.statusCode).toBe(200);
    expect(stale.body).toBe(first.body);
  });

  it("sends the list compressed to clients that take it, each coding with its own ETag", async () => {
    const plain = await a.app.inject({ url: "/api/products" });
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.headers.vary).toBe("accept-encoding");
    const br = await a.app.inject({
      url: "/api/products",
      headers: { "accept-encoding": "gzip, deflate, br" },
    });
    expect(br.headers["content-encoding"]).toBe("br");
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 2);
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body);
    const gzip = await a.app.inject({ url: "/api/products", headers: { "accept-encoding": "gzip" } });
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(plain.body);
    const etags = new Set([plain.headers.etag, br.headers.etag, gzip.headers.etag]);
    expect(etags.size).toBe(3);

    const revalidated = await a.app.inject({
      url: "/api/products",
      headers: { "accept-encoding": "br", "if-none-match": String(br.headers.etag) },
    });
    expect(revalidated.statusCode).toBe(304);
    expect(revalidated.headers.etag).toBe(br.headers.etag);
    // The identity copy's validator does not stand for the Brotli one.
    const other = await a.app.inject({
      url: "/api/products",
      headers: { "accept-encoding": "br", "if-none-match": String(plain.headers.etag) },
    });
    expect(other.statusCode).toBe(200);
    expect(brotliDecompressSync(other.rawPayload).toString()).toBe(plain.body);
  });

  it("gives each query its own ETag, and one to the same query however it is spelled", async () => {
    const plain = await a.app.inject({ url: "/api/products" });
    const spelled = await a.app.inject({ url: "/api/products?page=1&sort=name-asc&search=" });
    const other = await a.app.inject({ url: "/api/products?sort=price-asc" });
    expect(spelled.headers.etag).toBe(plain.headers.etag);
    expect(other.headers.etag).not.toBe(plain.headers.etag);
  });

  it("answers a repeated URL as it did the first time, security headers included", async () => {
    const url = "/api/products?category=mice&sort=price-desc";
    const first = await a.app.inject({ url });
    const repeat = await a.app.inject({ url });
    expect(repeat.statusCode).toBe(200);
    expect(repeat.body).toBe(first.body);
    for (const header of ["etag", "cache-control", "content-type", "content-security-policy"])
      expect(repeat.headers[header], header).toBe(first.headers[header]);
    for (const invalid of ["/api/products?page=0", "/api/products?page=0"])
      expect((await a.app.inject({ url: invalid })).statusCode).toBe(400);
  });

  it("sends a product with its ETag and 304 when the client has it", async () => {
    const product = await newProduct("ETag fan");
    const first = await a.app.inject({ url: `/api/products/${product.id}` });
    expect(first.json()).toMatchObject({ id: product.id, name: "ETag fan" });
    const etag = String(first.headers.etag);
    const revalidated = await a.app.inject({
      url: `/api/products/${product.id}`,
      headers: { "if-none-match": etag },
    });
    expect(revalidated.statusCode).toBe(304);
  });

  it("changes the ETag when the stock changes, so a browser's copy is refreshed", async () => {
    const product = await newProduct("Revalidated fan");
    const before = await a.app.inject({ url: `/api/products/${product.id}` });
    expect((await book(a.app, product.id, 10)).statusCode).toBe(201);
    const after = await a.app.inject({
      url: `/api/products/${product.id}`,
      headers: { "if-none-match": String(before.headers.etag) },
    });
    expect(after.statusCode).toBe(200);
    expect(after.json().quantity).toBe(990);
  });
});

describe("invalidation on the same instance", () => {
  it("shows the stock an order took and a removal gave back, at once", async () => {
    const product = await newProduct("Same-instance fan", 500);
    expect(await stockIn(a.app, product.id)).toEqual({ detail: 500, list: 500 });
    const order = await book(a.app, product.id, 20);
    expect(order.statusCode).toBe(201);
    expect(await stockIn(a.app, product.id)).toEqual({ detail: 480, list: 480 });
    const removed = await a.app.inject({
      method: "DELETE",
      url: `/api/orders/${order.json().id}`,
      headers: { cookie: customer.cookie, origin: ORIGIN },
    });
    expect(removed.statusCode).toBe(204);
    expect(await stockIn(a.app, product.id)).toEqual({ detail: 500, list: 500 });
  });

  it("shows an admin's edit and a new product at once", async () => {
    const product = await newProduct("Edited fan");
    await stockIn(a.app, product.id);
    const patched = await a.app.inject({
      method: "PATCH",
      url: `/api/products/${product.id}`,
      headers: { cookie: admin.cookie, origin: ORIGIN },
      payload: { price: 77, quantity: 321 },
    });
    expect(patched.statusCode).toBe(200);
    expect((await a.app.inject({ url: `/api/products/${product.id}` })).json()).toMatchObject({
      price: 77,
      quantity: 321,
    });

    const before = (await a.app.inject({ url: "/api/products?sort=newest" })).json() as ProductList;
    const created = await a.app.inject({
      method: "POST",
      url: "/api/products",
      headers: { cookie: admin.cookie, origin: ORIGIN },
      payload: {
        name: "Brand-new fan",
        description: "Just added.",
        image: "/media/products/cyclone-120-argb-pwm-fan.svg",
        price: 30,
        quantity: 40,
        category: "cooling-fans",
      },
    });
    expect(created.statusCode).toBe(201);
    const after = (await a.app.inject({ url: "/api/products?sort=newest" })).json() as ProductList;
    expect(after.total).toBe(before.total + 1);
    expect(after.items[0]?.name).toBe("Brand-new fan");
  });

  it("does not take stock for a replayed order, and shows the right stock after it", async () => {
    const product = await newProduct("Replayed fan", 100);
    const headers = { cookie: customer.cookie, origin: ORIGIN, "idempotency-key": "cache-replay-1" };
    const payload = { productId: product.id, quantity: 10, address: "1 Loop Road, Austin", phone: "5550123" };
    expect((await a.app.inject({ method: "POST", url: "/api/orders", headers, payload })).statusCode).toBe(
      201,
    );
    expect(await stockIn(a.app, product.id)).toEqual({ detail: 90, list: 90 });
    const replay = await a.app.inject({ method: "POST", url: "/api/orders", headers, payload });
    expect(replay.headers["idempotent-replayed"]).toBe("true");
    expect(await stockIn(a.app, product.id)).toEqual({ detail: 90, list: 90 });
  });
});

describe("invalidation across instances on one database", () => {
  it("shows on instance B an order placed and removed on instance A before B's copy expires", async () => {
    const product = await newProduct("Two-instance fan", 700);
    const filledAt = Date.now();
    expect(await stockIn(b, product.id)).toEqual({ detail: 700, list: 700 });
    const order = await book(a.app, product.id, 30);
    expect(order.statusCode).toBe(201);
    const seen = await watch(
      "B shows the booked units",
      filledAt,
      async () => (await stockIn(b, product.id)).detail === 670,
    );
    // Sooner than B's cached copy would have expired: A's change reached B, B did not just time out.
    expect(seen.passedBy).toBeLessThan(CATALOG_CACHE_TTL_MS);
    expect(await stockIn(b, product.id)).toEqual({ detail: 670, list: 670 });

    const removedAt = Date.now();
    await stockIn(b, product.id);
    await a.app.inject({
      method: "DELETE",
      url: `/api/orders/${order.json().id}`,
      headers: { cookie: customer.cookie, origin: ORIGIN },
    });
    const restored = await watch(
      "B shows the units back",
      removedAt,
      async () => (await stockIn(b, product.id)).list === 700,
    );
    expect(restored.passedBy).toBeLessThan(CATALOG_CACHE_TTL_MS);
  });

  it("shows on instance A an admin's edit made on instance B", async () => {
    const product = await newProduct("Repriced fan");
    const filledAt = Date.now();
    await stockIn(a.app, product.id);
    const patched = await b.inject({
      method: "PATCH",
      url: `/api/products/${product.id}`,
      headers: { cookie: admin.cookie, origin: ORIGIN },
      payload: { price: 99 },
    });
    expect(patched.statusCode).toBe(200);
    const seen = await watch(
      "A shows B's new price",
      filledAt,
      async () => (await a.app.inject({ url: `/api/products/${product.id}` })).json().price === 99,
    );
    expect(seen.passedBy).toBeLessThan(CATALOG_CACHE_TTL_MS);
  });
});

describe("staleness bound", () => {
  it(`never shows stock older than ${CATALOG_CACHE_TTL_MS} ms, even for a change nobody announced`, async () => {
    const product = await newProduct("Quietly restocked fan", 100);
    await stockIn(a.app, product.id);
    await stockIn(b, product.id);
    // Plain SQL, as from a console: no notification, so only the time to live brings it in.
    await setStockDirectly(a.database.db, eq(products.id, product.id), 250);
    const changedAt = Date.now();
    const fresh = async (app: FastifyInstance) => {
      const stock = await stockIn(app, product.id);
      return stock.detail === 250 && stock.list === 250;
    };
    for (const app of [a.app, b]) {
      const seen = await watch("the unannounced stock", changedAt, () => fresh(app));
      expect(seen.lastFailedAt, "the old stock was still shown").toBeLessThanOrEqual(CATALOG_CACHE_TTL_MS);
    }
  });

  it("stops caching while the change listener is cut off, and hears changes again once it is back", async () => {
    const product = await newProduct("Reconnected fan", 300);
    await stockIn(b, product.id);
    const listeners = sql`select pid from pg_stat_activity
      where datname = current_database() and application_name = ${LISTENER_APPLICATION_NAME}`;
    const before = await a.database.db.execute<{ pid: number }>(listeners);
    expect(before.rows).toHaveLength(2);
    await a.database.db.execute(sql`select pg_terminate_backend(pid) from (${listeners}) as listener`);
    // B notices within moments, and from then on keeps nothing…
    await until("B keeps nothing once its listener is cut off", async () => {
      await stockIn(b, product.id);
      return b.catalogCache.size === 0;
    });
    // …so a change nobody announced shows at once.
    await setStockDirectly(a.database.db, eq(products.id, product.id), 280);
    expect(await stockIn(b, product.id)).toEqual({ detail: 280, list: 280 });

    await until(
      "both listeners back",
      async () => (await a.database.db.execute(listeners)).rows.length === 2,
    );
    const filledAt = Date.now();
    expect((await stockIn(b, product.id)).detail).toBe(280);
    expect((await book(a.app, product.id, 10)).statusCode).toBe(201);
    const seen = await watch(
      "B hears A's booking again",
      filledAt,
      async () => (await stockIn(b, product.id)).detail === 270,
    );
    expect(seen.passedBy).toBeLessThan(CATALOG_CACHE_TTL_MS);
  });
});
