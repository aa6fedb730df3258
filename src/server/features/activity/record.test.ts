import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { activityLog } from "../../db/schema/index.js";
import { setUpTestApp } from "../../test/app.js";
import { stockedProduct } from "../../test/products.js";
import { fromShop } from "../../test/users.js";

const ctx = setUpTestApp({}, { rateLimit: { max: 10_000, windowSeconds: 60 } });
const admin = ctx.signedUpAdmin({ name: "Ada Record" });
const db = () => ctx.database.db;

const entriesOf = (targetType: "product" | "user" | "order", targetId: string) =>
  db()
    .select()
    .from(activityLog)
    .where(and(eq(activityLog.targetType, targetType), eq(activityLog.targetId, targetId)));

describe("the activity log's entries", () => {
  it("records a product's change once, with actor, before and after, request id and address", async () => {
    const id = await stockedProduct(db(), 40, 25);
    const res = await fromShop(ctx.app, "PATCH", `/api/products/${id}`, admin.cookie, {
      price: 31,
      name: "Renamed by the log's test",
    });
    expect(res.statusCode).toBe(200);
    const entries = await entriesOf("product", id);
    expect(entries).toHaveLength(1);
    const [entry] = entries;
    expect(entry).toMatchObject({
      action: "product.updated",
      actorId: admin.id,
      actorEmail: admin.email,
      address: "127.0.0.1",
    });
    expect(entry?.changes.price).toEqual([25, 31]);
    expect(entry?.changes.name?.[1]).toBe("Renamed by the log's test");
    expect(entry?.requestId).toBeTruthy();
    expect(res.headers["x-request-id"] ?? entry?.requestId).toBe(entry?.requestId);
  });

  it("leaves no entry when the change rolls back", async () => {
    const taken = await stockedProduct(db(), 10);
    const id = await stockedProduct(db(), 10);
    const sku = `LOG-${Date.now()}`;
    expect(
      (await fromShop(ctx.app, "PATCH", `/api/products/${taken}`, admin.cookie, { sku })).statusCode,
    ).toBe(200);
    const refused = await fromShop(ctx.app, "PATCH", `/api/products/${id}`, admin.cookie, { sku });
    expect(refused.statusCode).toBe(409);
    expect(await entriesOf("product", id)).toHaveLength(0);
  });
});
