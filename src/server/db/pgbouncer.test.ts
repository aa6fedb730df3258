import { eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../app.js";
import { setUpTestApp } from "../test/app.js";
import { askToBook } from "../test/payments.js";
import { type Bouncer, startPgBouncer } from "../test/pgbouncer.js";
import { insertProduct } from "../test/products.js";
import { until } from "../test/until.js";
import { fromShop } from "../test/users.js";
import { createDatabase, type Database, preparesByName } from "./client.js";
import { withSetupLock } from "./migrate.js";
import { products } from "./schema/index.js";

// The shop through PgBouncer in transaction mode (docs/scaling.md, "PgBouncer"): DATABASE_URL the
// pooler's, DATABASE_DIRECT_URL the database's own for what needs a session. In one process;
// reliability/pgbouncer-instances.test.ts runs three shop processes through one PgBouncer under order load.

const ctx = setUpTestApp({}, { rateLimit: { max: 10_000, windowSeconds: 60 } });
const admin = ctx.signedUpAdmin();
const buyers = Array.from({ length: 4 }, (_, i) => ctx.signedUpUser({ name: `Pooled Buyer ${i}` }));
let bouncer: Bouncer;
let pooled: Database;
let shop: FastifyInstance;
/** Far fewer server connections than the instance's pool: every statement shares them. */
const SERVER_CONNECTIONS = 3;

beforeAll(async () => {
  bouncer = await startPgBouncer(ctx.url, SERVER_CONNECTIONS);
  pooled = createDatabase(bouncer.url, { max: 20, directUrl: ctx.url });
  shop = await buildApp(ctx.config, pooled, { logger: false });
  await shop.ready();
});
afterAll(async () => {
  await shop?.close();
  await pooled?.close();
  await bouncer?.stop();
});

describe("through PgBouncer in transaction mode", () => {
  it("books from many customers at once on 3 server connections: exactly the stock, nothing refused", async () => {
    expect(preparesByName(pooled.db)).toBe(false);
    const productId = await insertProduct(ctx.database.db, { price: 20, quantity: 300 });
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) => {
        const buyer = buyers[i % buyers.length];
        if (!buyer) throw new Error("no buyer");
        return askToBook({ app: shop, database: pooled }, buyer, productId, 10);
      }),
    );
    const codes = answers.map((a) => a.statusCode);
    expect(
      codes.filter((c) => c === 201).length,
      JSON.stringify(answers.find((a) => a.statusCode >= 500)?.json()),
    ).toBe(30);
    expect(codes.filter((c) => c === 409).length).toBe(30);
    const [row] = await ctx.database.db
      .select({ q: products.quantity })
      .from(products)
      .where(eq(products.id, productId));
    expect(row?.q).toBe(0);
  });

  it("hears the catalog's changes on its own connection: another instance's edit reaches its cache", async () => {
    const productId = await insertProduct(ctx.database.db, { name: "Pooled Fan", price: 20, quantity: 5 });
    const read = async () => (await shop.inject({ method: "GET", url: `/api/products/${productId}` })).json();
    expect((await read()).price).toBe(20);
    // Cached now; the other instance (straight to the database) changes the price and tells.
    const res = await fromShop(ctx.app, "PATCH", `/api/products/${productId}`, admin.cookie, { price: 23 });
    expect(res.statusCode, res.body).toBe(200);
    await until("the pooled instance's cache to drop the old price", async () => (await read()).price === 23);
  });

  it("takes the set-up lock on a connection of its own, one holder at a time", async () => {
    const held: string[] = [];
    let inside = 0;
    let most = 0;
    const work = (name: string) =>
      withSetupLock(pooled, async () => {
        inside += 1;
        most = Math.max(most, inside);
        await pooled.pool.query("select pg_sleep(0.05)");
        held.push(name);
        inside -= 1;
      });
    await Promise.all([work("a"), work("b"), work("c")]);
    expect(held.sort()).toEqual(["a", "b", "c"]);
    expect(most).toBe(1);
  });
});
