import { eq, sql } from "drizzle-orm";
import pg from "pg";
import { describe, expect, it } from "vitest";
import type { AdminOverview } from "../../../shared/admin.js";
import { stockMessages } from "../../../shared/messages/stock.js";
import type { ProductStock, StockAdjusted, StockHistory } from "../../../shared/stock.js";
import { lowStockProducts, mailOutbox, products, stockMovements, users } from "../../db/schema/index.js";
import { stockCause } from "../../lib/stock.js";
import { setUpTestApp } from "../../test/app.js";
import { bookOrder, post } from "../../test/payments.js";
import { stockedProduct } from "../../test/products.js";
import { until } from "../../test/until.js";
import { fromShop, memoryMailer } from "../../test/users.js";
import { sendDueMails } from "../mail/index.js";
import { applyLowStockDefault } from "./service.js";

const ctx = setUpTestApp(
  { ORDER_EXPIRY_INTERVAL_SECONDS: "0.2" },
  { rateLimit: { max: 100_000, windowSeconds: 60 } },
);
const customer = ctx.signedUpUser({ name: "Stock Customer" });
const admin = ctx.signedUpAdmin({ name: "Ada Stock" });
const db = () => ctx.database.db;

const get = (url: string, cookie = admin.cookie) =>
  ctx.app.inject({ method: "GET", url, headers: { cookie } });
const adjust = (productId: string, body: object) =>
  post(ctx, admin, `/api/products/${productId}/stock/adjustments`, body);

async function movementsOf(productId: string) {
  return db()
    .select()
    .from(stockMovements)
    .where(eq(stockMovements.productId, productId))
    .orderBy(stockMovements.id);
}

/** The ledger's invariant for one product: its stock is the sum of its movements. */
async function expectBalanced(productId: string) {
  const [row] = await db()
    .select({
      stock: products.quantity,
      sum: sql<number>`(select coalesce(sum(change), 0)::int from stock_movement where product_id = ${productId})`,
    })
    .from(products)
    .where(eq(products.id, productId));
  expect(row?.sum).toBe(row?.stock);
}

describe("the stock ledger", () => {
  it("records a new product's stock as its initial movement", async () => {
    const id = await stockedProduct(db(), 120);
    const moves = await movementsOf(id);
    expect(moves).toMatchObject([{ reason: "initial", change: 120, stockAfter: 120, orderId: null }]);
  });

  it("refuses a change of stock that names no reason, so nothing skips the ledger", async () => {
    const id = await stockedProduct(db(), 100);
    await expect(db().update(products).set({ quantity: 90 }).where(eq(products.id, id))).rejects.toThrow();
    // A reason set in an earlier transaction does not carry over.
    await db().transaction(async (tx) => {
      await stockCause(tx, { reason: "adjustment", note: "once" });
      await tx.update(products).set({ quantity: 95 }).where(eq(products.id, id));
    });
    await expect(db().update(products).set({ quantity: 90 }).where(eq(products.id, id))).rejects.toThrow();
    await expectBalanced(id);
  });

  it("records a booking and a removal with the order, and the admin who removed it", async () => {
    const id = await stockedProduct(db(), 200);
    const order = await bookOrder(ctx, customer, id);
    const removed = await fromShop(ctx.app, "DELETE", `/api/orders/${order.id}`, admin.cookie);
    expect(removed.statusCode).toBe(204);
    const moves = await movementsOf(id);
    expect(moves.map((m) => [m.reason, m.change, m.stockAfter, m.orderId, m.adminId])).toEqual([
      ["initial", 200, 200, null, null],
      ["booking", -10, 190, order.id, null],
      ["removal", 10, 200, order.id, admin.id],
    ]);
    await expectBalanced(id);
  });

  it("records an expired hold's units as an expiry of its order", async () => {
    const id = await stockedProduct(db(), 200);
    const order = await bookOrder(ctx, customer, id);
    await db().execute(
      sql`update "order" set expires_at = now() - interval '1 second' where id = ${order.id}`,
    );
    await until("the expiry job gave the units back", async () => (await movementsOf(id)).length === 3);
    const moves = await movementsOf(id);
    expect(moves.at(-1)).toMatchObject({ reason: "expiry", change: 10, stockAfter: 200, orderId: order.id });
    await expectBalanced(id);
  });

  it("adjusts: sets, adds and takes away, each with the admin and the note", async () => {
    const id = await stockedProduct(db(), 40);
    const set = await adjust(id, { mode: "set", quantity: 55, note: "Counted the shelf" });
    expect(set.statusCode, set.body).toBe(200);
    const body: StockAdjusted = set.json();
    expect(body.stock.quantity).toBe(55);
    expect(body.movement).toMatchObject({
      reason: "adjustment",
      change: 15,
      before: 40,
      after: 55,
      adminId: admin.id,
      adminName: "Ada Stock",
      note: "Counted the shelf",
    });
    expect((await adjust(id, { mode: "add", units: 5, note: "Found a box" })).json().stock.quantity).toBe(60);
    expect((await adjust(id, { mode: "remove", units: 12, note: "Damaged" })).json().stock.quantity).toBe(48);
    // The same stock again changes nothing and records nothing.
    const same = await adjust(id, { mode: "set", quantity: 48, note: "Recount" });
    expect(same.json().movement).toBeNull();
    expect(await movementsOf(id)).toHaveLength(4);
    await expectBalanced(id);
  });

  it("adjusts while a booking's order holds the product's key, instead of queueing behind it", async () => {
    const id = await stockedProduct(db(), 40);
    // What a booking holds between writing its order and updating the product: the key share lock
    // of the order's foreign key on the product (book_order, migration 0020).
    const booking = new pg.Client({ connectionString: ctx.url });
    await booking.connect();
    try {
      await booking.query("begin");
      await booking.query("select 1 from product where id = $1 for key share", [id]);
      let answer: Awaited<ReturnType<typeof adjust>> | undefined;
      const adjusting = adjust(id, { mode: "add", units: 5, note: "Found a box" }).then((res) => {
        answer = res;
      });
      // Either the adjustment is answered, or it waits for the booking's lock (and fails below).
      await until("the adjustment is answered or waits for a lock", async () => {
        if (answer) return true;
        const waiting = await booking.query(
          `select 1 from pg_locks l join pg_stat_activity a using (pid)
           where not l.granted and a.datname = current_database()`,
        );
        return (waiting.rowCount ?? 0) > 0;
      });
      expect(answer?.statusCode, "answered while the booking holds the key").toBe(200);
      await booking.query("commit");
      await adjusting;
    } finally {
      await booking.end();
    }
    const [row] = await db()
      .select({ quantity: products.quantity })
      .from(products)
      .where(eq(products.id, id));
    expect(row?.quantity).toBe(45);
    await expectBalanced(id);
  });

  it("refuses an adjustment without a note, or below zero, and changes nothing", async () => {
    const id = await stockedProduct(db(), 10);
    const noNote = await adjust(id, { mode: "add", units: 5, note: "  " });
    expect(noNote.statusCode).toBe(400);
    expect(noNote.json().errors).toEqual([{ path: "note", message: stockMessages.noteRequired }]);
    const below = await adjust(id, { mode: "remove", units: 11, note: "Too many" });
    expect(below.statusCode).toBe(409);
    expect(below.json().detail).toBe(stockMessages.belowZero(10));
    const missing = await adjust("00000000-0000-4000-8000-000000000000", {
      mode: "add",
      units: 1,
      note: "x",
    });
    expect(missing.statusCode).toBe(404);
    expect(await movementsOf(id)).toHaveLength(1);
  });

  it("records the product form's stock as an adjustment by its admin", async () => {
    const id = await stockedProduct(db(), 30);
    const res = await fromShop(ctx.app, "PATCH", `/api/products/${id}`, admin.cookie, { quantity: 70 });
    expect(res.statusCode, res.body).toBe(200);
    expect((await movementsOf(id)).at(-1)).toMatchObject({
      reason: "adjustment",
      change: 40,
      adminId: admin.id,
      note: stockMessages.formNote,
    });
  });

  it("lists the history newest first, a page at a time by keyset, with who, why, before and after", async () => {
    const id = await stockedProduct(db(), 100);
    for (let i = 1; i <= 5; i += 1) await adjust(id, { mode: "add", units: i, note: `Restock ${i}` });
    const first = await get(`/api/products/${id}/stock/movements?limit=2`);
    expect(first.statusCode, first.body).toBe(200);
    const page1: StockHistory = first.json();
    expect(page1.items.map((m) => [m.note, m.before, m.after])).toEqual([
      ["Restock 5", 110, 115],
      ["Restock 4", 106, 110],
    ]);
    expect(page1.items[0]?.adminName).toBe("Ada Stock");
    const seen = [...page1.items];
    let cursor = page1.nextCursor;
    while (cursor) {
      const page: StockHistory = (
        await get(`/api/products/${id}/stock/movements?limit=2&cursor=${cursor}`)
      ).json();
      seen.push(...page.items);
      cursor = page.nextCursor;
    }
    expect(seen.map((m) => m.reason)).toEqual([...Array(5).fill("adjustment"), "initial"]);
    expect(seen.map((m) => Number(m.id))).toEqual(seen.map((m) => Number(m.id)).sort((a, b) => b - a));
    expect((await get(`/api/products/${id}/stock/movements?cursor=abc`)).statusCode).toBe(400);
    expect((await get("/api/products/00000000-0000-4000-8000-000000000000/stock/movements")).statusCode).toBe(
      404,
    );
  });

  it("downloads the history as formula-safe CSV", async () => {
    const id = await stockedProduct(db(), 20);
    await adjust(id, { mode: "add", units: 3, note: '=HYPERLINK("http://evil")' });
    const res = await get(`/api/products/${id}/stock/movements.csv`);
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toContain("text/csv");
    const lines = res.body
      .replace(/^\uFEFF/, "")
      .trimEnd()
      .split("\r\n");
    expect(lines).toHaveLength(3);
    expect(lines[0]).toBe(`"Movement","When (UTC)","Why","Change","Before","After","Order","Admin","Note"`);
    expect(lines[1]).toContain(`"Adjustment","3","20","23","","Ada Stock","'=HYPERLINK(""http://evil"")"`);
    expect(lines[2]).toContain(`"Initial stock","20","0","20"`);
  });
});

describe("low-stock alerts", () => {
  const lowStockMails = (productId: string) =>
    db().select().from(mailOutbox).where(eq(mailOutbox.productId, productId)).orderBy(mailOutbox.id);

  it("mails each admin once when the stock falls below the threshold, again only after it rose back", async () => {
    await db().update(users).set({ emailVerified: true }).where(eq(users.id, admin.id));
    const id = await stockedProduct(db(), 30);
    const threshold = await fromShop(ctx.app, "PUT", `/api/products/${id}/stock/threshold`, admin.cookie, {
      threshold: 25,
    });
    expect(threshold.statusCode, threshold.body).toBe(200);
    expect((threshold.json() as ProductStock).threshold).toBe(25);
    // 30 -> 20: a crossing; 20 -> 10: still low, no second mail.
    await bookOrder(ctx, customer, id);
    await bookOrder(ctx, customer, id);
    const admins = await db().select({ id: users.id }).from(users).where(eq(users.role, "admin"));
    expect((await lowStockMails(id)).map((m) => m.recipientId).sort()).toEqual(
      admins.map((a) => a.id).sort(),
    );
    // Back to the threshold re-arms it; the next fall mails again.
    await adjust(id, { mode: "set", quantity: 25, note: "Restocked" });
    expect(await db().select().from(lowStockProducts).where(eq(lowStockProducts.productId, id))).toEqual([]);
    await adjust(id, { mode: "remove", units: 1, note: "One broke" });
    expect(await lowStockMails(id)).toHaveLength(admins.length * 2);

    const mailer = memoryMailer();
    await sendDueMails({ db: db(), mailer, publicUrl: "http://localhost:3000", maxAttempts: 3 });
    const [named] = await db().select({ name: products.name }).from(products).where(eq(products.id, id));
    // Earlier tests' products crossed too: this product's mails to this admin.
    const mine = mailer.sent.filter((m) => m.to === admin.email && m.subject.includes(named?.name ?? "?"));
    expect(mine).toHaveLength(2);
    expect(mine[0]?.subject).toBe(`Low stock: ${named?.name}`);
    expect(mine[1]?.text.replace(/\s+/g, " ")).toContain(
      "down to 24 units, below its low-stock threshold of 25",
    );
  });

  it("shows each product's threshold in the overview's list", async () => {
    const id = await stockedProduct(db(), 500);
    await fromShop(ctx.app, "PUT", `/api/products/${id}/stock/threshold`, admin.cookie, { threshold: 600 });
    const body: AdminOverview = (await get("/api/admin/overview")).json();
    const mine = await db().select().from(lowStockProducts).where(eq(lowStockProducts.productId, id));
    expect(mine).toMatchObject([{ quantity: 500, threshold: 600 }]);
    for (const item of body.lowStock) expect(item.quantity).toBeLessThan(item.threshold);
    // Back to the shop's default (50): no longer low.
    await fromShop(ctx.app, "PUT", `/api/products/${id}/stock/threshold`, admin.cookie, { threshold: null });
    expect(await db().select().from(lowStockProducts).where(eq(lowStockProducts.productId, id))).toEqual([]);
  });

  it("leaves archived products off the list and unalerted; a restore puts one back, with no mail", async () => {
    const onList = (id: string) =>
      db().select().from(lowStockProducts).where(eq(lowStockProducts.productId, id));
    const inOverview = async (id: string) => {
      const body: AdminOverview = (await get("/api/admin/overview")).json();
      return body.lowStock.some((item) => item.id === id);
    };
    const id = await stockedProduct(db(), 5);
    expect(await onList(id)).toHaveLength(1);
    expect(await inOverview(id)).toBe(true);
    const archived = await fromShop(ctx.app, "POST", `/api/products/${id}/archive`, admin.cookie);
    expect(archived.statusCode, archived.body).toBe(200);
    expect(await onList(id)).toEqual([]);
    expect(await inOverview(id)).toBe(false);
    // Its stock falls (an adjustment) or the default rises: still off the list, and no mail.
    const mailsBefore = (await lowStockMails(id)).length;
    await adjust(id, { mode: "remove", units: 2, note: "Written off" });
    expect(await applyLowStockDefault(db(), 80)).toBe(true);
    expect(await applyLowStockDefault(db(), 50)).toBe(true);
    expect(await onList(id)).toEqual([]);
    expect(await lowStockMails(id)).toHaveLength(mailsBefore);
    // Restored: back on the list, as its stock is low, without a mail.
    await fromShop(ctx.app, "POST", `/api/products/${id}/restore`, admin.cookie);
    expect(await onList(id)).toMatchObject([{ quantity: 3, threshold: 50 }]);
    expect(await lowStockMails(id)).toHaveLength(mailsBefore);
  });

  it("follows a new shop default for the products without their own, with no mail", async () => {
    const id = await stockedProduct(db(), 70);
    const before = (await lowStockMails(id)).length;
    expect(await applyLowStockDefault(db(), 80)).toBe(true);
    expect(
      await db().select().from(lowStockProducts).where(eq(lowStockProducts.productId, id)),
    ).toMatchObject([{ quantity: 70, threshold: 80 }]);
    expect(await applyLowStockDefault(db(), 50)).toBe(true);
    expect(await applyLowStockDefault(db(), 50)).toBe(false);
    expect(await db().select().from(lowStockProducts).where(eq(lowStockProducts.productId, id))).toEqual([]);
    expect(await lowStockMails(id)).toHaveLength(before);
  });
});
