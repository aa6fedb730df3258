import { eq } from "drizzle-orm";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { PRODUCT_PRICE_MAX } from "../../../shared/catalog.js";
import { MAX_ORDER_TOTAL } from "../../../shared/constants.js";
import { accountMessages } from "../../../shared/messages/accounts.js";
import { orderMessages } from "../../../shared/messages/orders.js";
import { type Order, orderTotalTooLarge } from "../../../shared/orders.js";
import { idempotencyKeys, orders, products } from "../../db/schema/index.js";
import { setUpTestApp } from "../../test/app.js";
import { insertProduct, productStock, setStockDirectly } from "../../test/products.js";
import { fromShop, ORIGIN, type TestUser } from "../../test/users.js";

const ctx = setUpTestApp({}, { rateLimit: { max: 10_000, windowSeconds: 60 } });
const alice = ctx.signedUpUser({ name: "Alice Buyer" });
const bob = ctx.signedUpUser({ name: "Bob Buyer" });
const admin = ctx.signedUpAdmin({ email: "orders.admin@example.com" });

function newProduct(quantity: number, price = 25): Promise<string> {
  return insertProduct(ctx.database.db, { image: "/media/products/x.svg", price, quantity });
}

const stockOf = (id: string) => productStock(ctx.database.db, id);

const removeOrder = (id: string, user: TestUser) =>
  fromShop(ctx.app, "DELETE", `/api/orders/${id}`, user.cookie);

function book(user: TestUser, body: Record<string, unknown>, headers: Record<string, string> = {}) {
  return ctx.app.inject({
    method: "POST",
    url: "/api/orders",
    headers: { cookie: user.cookie, origin: ORIGIN, ...headers },
    payload: { address: "1 Loop Road, Austin", phone: "5550123", ...body },
  });
}

describe("POST /api/orders", () => {
  it("takes name, email, product name, price and total from the server, and takes the stock", async () => {
    const productId = await newProduct(100, 30);
    const res = await book(alice, {
      productId,
      quantity: 12,
      totalPrice: 1,
      price: 1,
      name: "Mallory",
      email: "m@x.io",
      paid: true,
      status: "paid",
    });
    expect(res.statusCode).toBe(201);
    const order: Order = res.json();
    expect(order).toMatchObject({
      productId,
      name: "Alice Buyer",
      email: alice.email,
      quantity: 12,
      unitPrice: 30,
      totalPrice: 360,
      paid: false,
      status: "pending",
      transactionId: null,
      img: "/media/products/x.svg",
    });
    expect(await stockOf(productId)).toBe(88);
  });

  it("refuses an address of more than 4 lines or with control characters, under the address field", async () => {
    const productId = await newProduct(50);
    const address = [
      [
        "1 Loop Road\nSeller VAT ID: DE000000000\nPAID\nTOTAL DUE: $0\nThanks",
        accountMessages.addressTooManyLines,
      ],
      ["1 Loop Road\u2029PAID - TOTAL DUE: $0", accountMessages.addressControl],
      ["1 Loop Road\u000bPAID", accountMessages.addressControl],
    ];
    for (const [text, message] of address) {
      const res = await book(alice, { productId, quantity: 10, address: text });
      expect(res.statusCode, text).toBe(400);
      expect(res.json().errors).toEqual([{ path: "address", message }]);
    }
    expect(await stockOf(productId)).toBe(50);
    expect((await book(alice, { productId, quantity: 10, address: "1 Loop Road\nAustin" })).statusCode).toBe(
      201,
    );
  });

  it("refuses fewer than 10 units, more than the stock, and fractions, changing nothing", async () => {
    const productId = await newProduct(50);
    const nine = await book(alice, { productId, quantity: 9 });
    expect(nine.statusCode).toBe(400);
    expect(nine.json().errors[0].message).toBe(orderMessages.minimum);
    const tooMany = await book(alice, { productId, quantity: 51 });
    expect(tooMany.statusCode).toBe(409);
    expect(tooMany.json().detail).toBe(orderMessages.outOfStock);
    expect((await book(alice, { productId, quantity: 10.5 })).statusCode).toBe(400);
    expect((await book(alice, { productId, quantity: "10" })).statusCode).toBe(400);
    expect(await stockOf(productId)).toBe(50);
    expect((await book(alice, { productId, quantity: 50 })).statusCode).toBe(201);
    expect(await stockOf(productId)).toBe(0);
  });

  it("requires an address and a numeric contact number, and a real product", async () => {
    const productId = await newProduct(50);
    expect((await book(alice, { productId, quantity: 10, address: "" })).statusCode).toBe(400);
    expect((await book(alice, { productId, quantity: 10, phone: "call me" })).statusCode).toBe(400);
    const ghost = await book(alice, { productId: "00000000-0000-4000-8000-000000000000", quantity: 10 });
    expect(ghost.statusCode).toBe(404);
  });

  it("refuses an order over what one payment can take with 400 and the reason, changing nothing", async () => {
    // The audit's cases: 21,475 units at $100,000 overflowed 32 bits (a 500); 215 units made an
    // order of $21.5 M whose payment intent then failed.
    const id = await newProduct(1_000_000, PRODUCT_PRICE_MAX);
    const before = await ctx.database.db.select({ id: orders.id }).from(orders);
    for (const quantity of [21_475, 215, 10, 1_000_000]) {
      const res = await book(alice, { productId: id, quantity });
      expect(res.statusCode, `${quantity} units`).toBe(400);
      expect(res.json().detail).toBe(orderTotalTooLarge());
    }
    expect(await stockOf(id)).toBe(1_000_000);
    expect(await ctx.database.db.select({ id: orders.id }).from(orders)).toHaveLength(before.length);

    // Exactly the limit is fine, and its payment intent can be made.
    const divisor = await newProduct(1_000_000, 3);
    const res = await book(alice, { productId: divisor, quantity: MAX_ORDER_TOTAL / 3 });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().totalPrice).toBe(MAX_ORDER_TOTAL);
    const intent = await ctx.app.inject({
      method: "POST",
      url: `/api/orders/${res.json().id}/payment-intent`,
      headers: { cookie: alice.cookie, origin: ORIGIN },
    });
    expect(intent.statusCode, intent.body).toBe(200);
    expect(intent.json().amount).toBe(MAX_ORDER_TOTAL * 100);
  });

  it("answers no 5xx for any price and quantity: 201, 400 or 409, and stock + ordered units stay whole", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: PRODUCT_PRICE_MAX }),
        fc.oneof(fc.integer({ min: 10, max: 3_000 }), fc.integer({ min: 10, max: 1_000_000 })),
        async (price, quantity) => {
          const stock = 2_000;
          const id = await newProduct(stock, price);
          const res = await book(alice, { productId: id, quantity });
          const fits = price * quantity <= MAX_ORDER_TOTAL;
          const expected = !fits ? 400 : quantity > stock ? 409 : 201;
          expect(res.statusCode, `${quantity} × $${price}: ${res.body}`).toBe(expected);
          expect(await stockOf(id)).toBe(res.statusCode === 201 ? stock - quantity : stock);
        },
      ),
      { seed: 146, numRuns: 60 },
    );
  });

  it("answers 401 to a visitor", async () => {
    const productId = await newProduct(50);
    const res = await ctx.app.inject({
      method: "POST",
      url: "/api/orders",
      payload: { productId, quantity: 10, address: "a", phone: "5550123" },
    });
    expect(res.statusCode).toBe(401);
    expect(await stockOf(productId)).toBe(50);
    // The session is checked before the body: a visitor learns nothing about the input rules.
    const malformed = await ctx.app.inject({
      method: "POST",
      url: "/api/orders",
      headers: { origin: ORIGIN },
      payload: { quantity: "lots" },
    });
    expect(malformed.statusCode).toBe(401);
  });

  it("returns the first order for a repeated Idempotency-Key, also when sent concurrently", async () => {
    const productId = await newProduct(500);
    const key = `key-${Math.random()}`;
    const results = await Promise.all(
      Array.from({ length: 10 }, () => book(alice, { productId, quantity: 10 }, { "idempotency-key": key })),
    );
    expect(results.map((r) => r.statusCode)).toEqual(Array(10).fill(201));
    expect(new Set(results.map((r) => r.body)).size).toBe(1);
    expect(await stockOf(productId)).toBe(490);
    const other = await book(alice, { productId, quantity: 20 }, { "idempotency-key": key });
    expect(other.statusCode).toBe(422);
    // The same key belongs to its user only.
    expect((await book(bob, { productId, quantity: 10 }, { "idempotency-key": key })).statusCode).toBe(201);
  });

  it("keeps nothing of a refused booking with an Idempotency-Key: the retry after a restock books", async () => {
    const productId = await newProduct(5);
    const key = `key-${Math.random()}`;
    const refused = await book(alice, { productId, quantity: 10 }, { "idempotency-key": key });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().detail).toBe(orderMessages.outOfStock);
    const claims = await ctx.database.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, key));
    expect(claims).toEqual([]);
    await setStockDirectly(ctx.database.db, eq(products.id, productId), 50);
    const retried = await book(alice, { productId, quantity: 10 }, { "idempotency-key": key });
    expect(retried.statusCode).toBe(201);
    expect(await stockOf(productId)).toBe(40);
  });

  it("never oversells: 100 simultaneous orders of 10 on a stock of 500 make exactly 50", async () => {
    const productId = await newProduct(500);
    const results = await Promise.all(
      Array.from({ length: 100 }, (_, i) => book(i % 2 ? alice : bob, { productId, quantity: 10 })),
    );
    const statuses = results.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 201)).toHaveLength(50);
    expect(statuses.filter((s) => s === 409)).toHaveLength(50);
    expect(await stockOf(productId)).toBe(0);
    const made = await ctx.database.db
      .select({ id: orders.id })
      .from(orders)
      .where(eq(orders.productId, productId));
    expect(made).toHaveLength(50);
  });
});

describe("reading and removing orders", () => {
  it("shows a customer only their own orders", async () => {
    const productId = await newProduct(100);
    const mine: Order = (await book(bob, { productId, quantity: 10 })).json();
    const list: Order[] = (
      await ctx.app.inject({ url: "/api/orders/mine?limit=100", headers: { cookie: bob.cookie } })
    ).json().items;
    expect(list.some((o) => o.id === mine.id)).toBe(true);
    expect(list.every((o) => o.email === bob.email)).toBe(true);
    const theirs = await ctx.app.inject({ url: `/api/orders/${mine.id}`, headers: { cookie: alice.cookie } });
    expect(theirs.statusCode).toBe(404);
    expect(
      (await ctx.app.inject({ url: `/api/orders/${mine.id}`, headers: { cookie: admin.cookie } })).statusCode,
    ).toBe(200);
  });

  it("removes an unpaid order, returns its stock, and refuses another customer's", async () => {
    const productId = await newProduct(100);
    const order: Order = (await book(alice, { productId, quantity: 40 })).json();
    expect(await stockOf(productId)).toBe(60);
    const remove = (user: TestUser) => removeOrder(order.id, user);
    expect((await remove(bob)).statusCode).toBe(404);
    expect(await stockOf(productId)).toBe(60);
    expect((await remove(alice)).statusCode).toBe(204);
    expect(await stockOf(productId)).toBe(100);
    expect((await remove(alice)).statusCode).toBe(404);
  });

  it("refuses to remove a paid order", async () => {
    const productId = await newProduct(100);
    const order: Order = (await book(alice, { productId, quantity: 10 })).json();
    await ctx.database.db
      .update(orders)
      .set({ status: "paid", transactionId: `pi_${Math.random()}` })
      .where(eq(orders.id, order.id));
    const res = await removeOrder(order.id, alice);
    expect(res.statusCode).toBe(409);
    expect(await stockOf(productId)).toBe(90);
  });

  it("lists all orders for an admin only", async () => {
    expect((await ctx.app.inject({ url: "/api/orders", headers: { cookie: alice.cookie } })).statusCode).toBe(
      403,
    );
    expect((await ctx.app.inject({ url: "/api/orders" })).statusCode).toBe(401);
    const all = await ctx.app.inject({ url: "/api/orders?limit=100", headers: { cookie: admin.cookie } });
    expect(all.statusCode).toBe(200);
    expect(new Set(all.json().items.map((o: Order) => o.email))).toEqual(new Set([alice.email, bob.email]));
  });
});

describe("POST /api/orders/:id/ship", () => {
  const ship = (id: string, user?: TestUser) =>
    ctx.app.inject({
      method: "POST",
      url: `/api/orders/${id}/ship`,
      headers: { origin: ORIGIN, ...(user ? { cookie: user.cookie } : {}) },
    });

  async function rowOf(id: string) {
    const [row] = await ctx.database.db.select().from(orders).where(eq(orders.id, id));
    return row;
  }

  async function paidOrder(): Promise<Order> {
    const order: Order = (await book(alice, { productId: await newProduct(100), quantity: 10 })).json();
    await ctx.database.db
      .update(orders)
      .set({ status: "paid", transactionId: `pi_${Math.random()}`, paidAt: new Date() })
      .where(eq(orders.id, order.id));
    return order;
  }

  it("ships a paid order once, and answers the same order when shipped again", async () => {
    const order = await paidOrder();
    const first = await ship(order.id, admin);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ id: order.id, status: "shipped", paid: true });
    const shippedAt = (await rowOf(order.id))?.shippedAt;
    expect(shippedAt).toBeInstanceOf(Date);

    const again = await ship(order.id, admin);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());
    expect((await rowOf(order.id))?.shippedAt).toEqual(shippedAt);
  });

  it("refuses an unpaid order with 409, leaving it pending", async () => {
    const order: Order = (await book(alice, { productId: await newProduct(100), quantity: 10 })).json();
    const res = await ship(order.id, admin);
    expect(res.statusCode).toBe(409);
    expect(res.json().detail).toBe(orderMessages.lifecycle.notPaidForShipping);
    expect(await rowOf(order.id)).toMatchObject({ status: "pending", shippedAt: null });
  });

  it("answers 404 for an unknown order", async () => {
    const res = await ship("00000000-0000-4000-8000-000000000000", admin);
    expect(res.statusCode).toBe(404);
    expect(res.json().detail).toBe(orderMessages.notFound);
  });

  it("is refused to the customer (403) and a visitor (401), changing nothing", async () => {
    const order = await paidOrder();
    expect((await ship(order.id, alice)).statusCode).toBe(403);
    expect((await ship(order.id)).statusCode).toBe(401);
    expect(await rowOf(order.id)).toMatchObject({ status: "paid", shippedAt: null });
  });
});

describe("admin Remove on Manage Orders", () => {
  it("removes a customer's unpaid order and returns its stock", async () => {
    const productId = await newProduct(100);
    const order: Order = (await book(bob, { productId, quantity: 30 })).json();
    expect(await stockOf(productId)).toBe(70);
    const res = await removeOrder(order.id, admin);
    expect(res.statusCode).toBe(204);
    expect(await stockOf(productId)).toBe(100);
    const [left] = await ctx.database.db.select().from(orders).where(eq(orders.id, order.id));
    expect(left).toBeUndefined();
  });
});
