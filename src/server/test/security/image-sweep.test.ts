import { eq, inArray, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { images } from "../../db/schema/index.js";
import { sweepUnusedImages } from "../../features/uploads/sweep.js";
import { createTestApp, setUpTestApp } from "../app.js";
import { postUpload, tinyPng, UPLOADS_UNLIMITED } from "../images.js";
import { insertProduct } from "../products.js";
import { until } from "../until.js";
import { ORIGIN, type TestUser } from "../users.js";

/**
 * Unused images (README.md, Guarantees): images that no product or order uses were never deleted,
 * so uploads could fill the disk for good. An image no product or order uses is removed 24 hours
 * after its upload, or after the last product or order that used it let go of it (removed, or given
 * another image).
 *
 * The sweep looks at released_at, not created_at: it is when the image's 24 hours began (null while
 * a product or order uses it). Tests age an image by moving it back; a null stays null.
 */

// Uploads sent at once here are about the sweep, not about one account's places (upload-spool.test.ts).
const ctx = setUpTestApp(UPLOADS_UNLIMITED);
const customer = ctx.signedUpUser({ name: "Sweep Customer" });
const admin = ctx.signedUpAdmin({ name: "Sweep Admin" });
let productId: string;
beforeAll(async () => {
  productId = await newProduct("/media/products/gale-120-high-static-pressure-fan.svg");
});

function newProduct(image: string): Promise<string> {
  return insertProduct(ctx.database.db, { name: "Sweep fan", image, price: 12, quantity: 100_000 });
}

let seed = 100;
/** Uploads a new image through the API; its URL and key. */
async function uploaded(user: TestUser = customer): Promise<{ url: string; key: string }> {
  const res = await postUpload(ctx.app, user.cookie, await tinyPng(seed++));
  expect(res.statusCode, res.body).toBe(201);
  const { url } = res.json() as { url: string };
  return { url, key: url.slice("/api/images/".length, -".webp".length) };
}

const age = (keys: string[], interval = "25 hours") =>
  ctx.database.db
    .update(images)
    .set({ releasedAt: sql`${images.releasedAt} - ${interval}::interval` })
    .where(inArray(images.key, keys));

async function stored(keys: string[]): Promise<string[]> {
  const rows = await ctx.database.db
    .select({ key: images.key })
    .from(images)
    .where(inArray(images.key, keys));
  return rows.map((r) => r.key).sort();
}

const served = async (url: string) => (await ctx.app.inject({ url })).statusCode;

async function order(img: string): Promise<string> {
  const res = await ctx.app.inject({
    method: "POST",
    url: "/api/orders",
    headers: { origin: ORIGIN, cookie: customer.cookie },
    payload: { productId, quantity: 10, address: "1 Sweep Street", phone: "+1 555 0123", img },
  });
  expect(res.statusCode, res.body).toBe(201);
  return (res.json() as { id: string }).id;
}

/** Sweeps until nothing is left to look at: the tests share one database, and batches are bounded. */
async function sweepAll(): Promise<void> {
  while ((await sweepUnusedImages(ctx.database.db)).removed > 0);
}

describe("removing images no product or order uses", () => {
  it("removes exactly the unused images older than 24 hours, and their URLs then answer 404", async () => {
    const unusedOld = await uploaded();
    const unusedNew = await uploaded();
    const onProduct = await uploaded(admin);
    const onOrder = await uploaded();
    await newProduct(onProduct.url);
    await order(onOrder.url);
    await age([unusedOld.key, onProduct.key, onOrder.key]);
    await age([unusedNew.key], "23 hours");

    await sweepAll();

    const all = [unusedOld, unusedNew, onProduct, onOrder];
    expect(await stored(all.map((i) => i.key))).toEqual([unusedNew.key, onProduct.key, onOrder.key].sort());
    expect(await served(unusedOld.url)).toBe(404);
    for (const kept of [unusedNew, onProduct, onOrder]) expect(await served(kept.url)).toBe(200);
  });

  it("removes an image 24 hours after the order or product that used it let go of it", async () => {
    const ofOrder = await uploaded();
    const ofProduct = await uploaded(admin);
    const orderId = await order(ofOrder.url);
    const product = await newProduct(ofProduct.url);
    await age([ofOrder.key, ofProduct.key]);
    await sweepAll();
    expect(await stored([ofOrder.key, ofProduct.key])).toHaveLength(2);

    const removed = await ctx.app.inject({
      method: "DELETE",
      url: `/api/orders/${orderId}`,
      headers: { origin: ORIGIN, cookie: customer.cookie },
    });
    expect(removed.statusCode).toBe(204);
    const changed = await ctx.app.inject({
      method: "PATCH",
      url: `/api/products/${product}`,
      headers: { origin: ORIGIN, cookie: admin.cookie },
      payload: { image: "/media/products/gale-120-high-static-pressure-fan.svg" },
    });
    expect(changed.statusCode, changed.body).toBe(200);

    // Let go of just now: kept for 24 hours more.
    await sweepAll();
    expect(await stored([ofOrder.key, ofProduct.key])).toHaveLength(2);
    await age([ofOrder.key, ofProduct.key]);
    await sweepAll();
    expect(await stored([ofOrder.key, ofProduct.key])).toEqual([]);
    expect(await served(ofOrder.url)).toBe(404);
  });

  it("keeps an image that is uploaded again for 24 hours from the new upload", async () => {
    const png = await tinyPng(seed++);
    const send = () => postUpload(ctx.app, customer.cookie, png);
    const { url } = (await send()).json() as { url: string };
    const key = url.slice(12, 76);
    await age([key]);
    expect((await send()).json()).toEqual({ url });
    await sweepAll();
    expect(await stored([key])).toEqual([key]);
  });

  it("works in bounded batches, and two sweeps at once (two instances) remove each image once", async () => {
    const batch = 4;
    const unused = await Promise.all(Array.from({ length: 3 * batch }, () => uploaded()));
    await age(unused.map((i) => i.key));
    const first = await sweepUnusedImages(ctx.database.db, { batch });
    expect(first.removed + first.kept).toBe(batch);
    const both = await Promise.all([
      sweepUnusedImages(ctx.database.db, { batch }),
      sweepUnusedImages(ctx.database.db, { batch }),
    ]);
    expect(both.reduce((sum, step) => sum + step.removed, 0)).toBe(2 * batch);
    expect(await stored(unused.map((i) => i.key))).toEqual([]);
  });

  it("sweeps by itself every IMAGE_SWEEP_INTERVAL_SECONDS while the server runs", async () => {
    const own = await createTestApp({ IMAGE_SWEEP_INTERVAL_SECONDS: "1" });
    try {
      const key = "f".repeat(64);
      await own.database.db.insert(images).values({
        key,
        contentType: "image/webp",
        data: Buffer.from("RIFF"),
        width: 1,
        height: 1,
        byteSize: 4,
        releasedAt: sql`now() - interval '25 hours'`,
      });
      await until("the sweep to remove the image", async () => {
        const rows = await own.database.db.select().from(images).where(eq(images.key, key));
        return rows.length === 0;
      });
    } finally {
      await own.close();
    }
  });
});
