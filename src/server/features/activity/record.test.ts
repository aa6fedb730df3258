import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { activityLog } from "../../db/schema/index.js";
import { setUpTestApp } from "../../test/app.js";
import { paidOrder, placeOrder, post } from "../../test/payments.js";
import { stockedProduct } from "../../test/products.js";
import { fromShop } from "../../test/users.js";

const ctx = setUpTestApp({}, { rateLimit: { max: 10_000, windowSeconds: 60 } });
const admin = ctx.signedUpAdmin({ name: "Ada Record" });
const logged = ctx.signedUpUser({ name: "Logged User" });
const buyer = ctx.signedUpUser({ name: "Logged Buyer" });
const db = () => ctx.database.db;

const entriesOf = (targetType: "product" | "user" | "order", targetId: string) =>
  db()
    .select()
    .from(activityLog)
    .where(and(eq(activityLog.targetType, targetType), eq(activityLog.targetId, targetId)))
    .orderBy(activityLog.id);

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

  it("records a new product, its archive, restore and deletion, one entry each", async () => {
    const made = await fromShop(ctx.app, "POST", "/api/products", admin.cookie, {
      name: "Logged Keyboard",
      image: `/api/images/${"ab12".repeat(16)}.webp`,
      price: 50,
      quantity: 5,
      description: "A board the activity log follows.",
      category: "keyboards",
    });
    expect(made.statusCode).toBe(201);
    const id = made.json<{ id: string }>().id;
    for (const action of ["archive", "archive", "restore"]) {
      expect(
        (await fromShop(ctx.app, "POST", `/api/products/${id}/${action}`, admin.cookie)).statusCode,
      ).toBe(200);
    }
    expect((await fromShop(ctx.app, "DELETE", `/api/products/${id}`, admin.cookie)).statusCode).toBe(204);
    const entries = await entriesOf("product", id);
    // Archiving twice is one archive.
    expect(entries.map((e) => e.action).sort()).toEqual([
      "product.archived",
      "product.created",
      "product.deleted",
      "product.restored",
    ]);
    const created = entries.find((e) => e.action === "product.created");
    expect(created?.changes.price).toEqual([null, 50]);
    const deleted = entries.find((e) => e.action === "product.deleted");
    expect(deleted?.changes.name).toEqual(["Logged Keyboard", null]);
    expect(entries.every((e) => e.actorId === admin.id && e.requestId)).toBe(true);
  });

  it("records a stock adjustment with the stock before and after", async () => {
    const id = await stockedProduct(db(), 40);
    const res = await fromShop(ctx.app, "POST", `/api/products/${id}/stock/adjustments`, admin.cookie, {
      mode: "remove",
      units: 4,
      note: "Damaged in the stockroom",
    });
    expect(res.statusCode).toBeLessThan(300);
    const entries = await entriesOf("product", id);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ action: "stock.adjusted", actorId: admin.id });
    expect(entries[0]?.changes.quantity).toEqual([40, 36]);
  });

  it("records a role change and a removal of a user, keeping who they were", async () => {
    const user = logged;
    const role = await fromShop(ctx.app, "PUT", `/api/users/${user.id}/role`, admin.cookie, {
      role: "admin",
    });
    expect(role.statusCode).toBe(200);
    const same = await fromShop(ctx.app, "PUT", `/api/users/${user.id}/role`, admin.cookie, {
      role: "admin",
    });
    expect(same.statusCode).toBe(200);
    expect((await fromShop(ctx.app, "DELETE", `/api/users/${user.id}`, admin.cookie)).statusCode).toBe(204);
    const entries = await entriesOf("user", user.id);
    expect(entries.map((e) => [e.action, e.changes])).toEqual([
      ["user.role_changed", { role: ["user", "admin"] }],
      ["user.removed", { email: [user.email, null], name: ["Logged User", null], role: ["admin", null] }],
    ]);
  });

  it("records a shipping, a refund and an admin's removal of an order, one entry each", async () => {
    const toShip = await paidOrder(ctx, buyer);
    const ship = { carrier: "UPS", trackingNumber: "1Z999" };
    expect((await post(ctx, admin, `/api/orders/${toShip.id}/ship`, ship)).statusCode).toBe(200);
    expect((await post(ctx, admin, `/api/orders/${toShip.id}/ship`, ship)).statusCode).toBe(200);
    const shipped = await entriesOf("order", toShip.id);
    expect(shipped.map((e) => [e.action, e.changes])).toEqual([
      [
        "order.shipped",
        { status: ["paid", "shipped"], carrier: [null, "UPS"], trackingNumber: [null, "1Z999"] },
      ],
    ]);

    const toRefund = await paidOrder(ctx, buyer);
    expect((await post(ctx, admin, `/api/orders/${toRefund.id}/refund`)).statusCode).toBe(200);
    expect((await post(ctx, admin, `/api/orders/${toRefund.id}/refund`)).statusCode).toBe(200);
    const refunded = await entriesOf("order", toRefund.id);
    expect(refunded).toHaveLength(1);
    expect(refunded[0]).toMatchObject({ action: "order.refunded", actorId: admin.id });
    expect(refunded[0]?.changes.status).toEqual(["paid", "refunded"]);

    const ownRemoval = await placeOrder(ctx, buyer);
    expect((await fromShop(ctx.app, "DELETE", `/api/orders/${ownRemoval.id}`, buyer.cookie)).statusCode).toBe(
      204,
    );
    expect(await entriesOf("order", ownRemoval.id)).toHaveLength(0);
    const adminRemoval = await placeOrder(ctx, buyer);
    expect(
      (await fromShop(ctx.app, "DELETE", `/api/orders/${adminRemoval.id}`, admin.cookie)).statusCode,
    ).toBe(204);
    const removed = await entriesOf("order", adminRemoval.id);
    expect(removed).toHaveLength(1);
    expect(removed[0]).toMatchObject({ action: "order.removed", actorId: admin.id });
    expect(removed[0]?.changes.status).toEqual(["pending", null]);
  });

  it("records an admin's sign-in and a failed one, and no customer's", async () => {
    const signIn = (email: string, password: string) =>
      fromShop(ctx.app, "POST", "/api/auth/sign-in/email", undefined, { email, password });
    expect((await signIn(admin.email, admin.password)).statusCode).toBe(200);
    expect((await signIn(admin.email, "not the password at all")).statusCode).toBeGreaterThanOrEqual(400);
    expect((await signIn(buyer.email, buyer.password)).statusCode).toBe(200);
    const entries = await entriesOf("user", admin.id);
    expect(entries.map((e) => [e.action, e.actorId, e.actorEmail, e.address])).toEqual([
      ["admin.signed_in", admin.id, admin.email, "127.0.0.1"],
      ["admin.sign_in_failed", null, admin.email, "127.0.0.1"],
    ]);
    expect(await entriesOf("user", buyer.id)).toHaveLength(0);
  });
});
