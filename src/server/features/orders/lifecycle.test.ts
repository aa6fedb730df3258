import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { orderMessages } from "../../../shared/messages/orders.js";
import { paymentMessages } from "../../../shared/messages/payments.js";
import {
  CARRIER_MAX_LENGTH,
  ORDER_STATUSES,
  type Order,
  type OrderStatus,
  TRACKING_NUMBER_MAX_LENGTH,
} from "../../../shared/orders.js";
import { buildApp } from "../../app.js";
import { createDatabase } from "../../db/client.js";
import { orders, overviewCounts, products, refunds, sandboxIntents } from "../../db/schema/index.js";
import { createTestApp, setUpTestApp, type TestContext } from "../../test/app.js";
import {
  confirmWithCard,
  intentFor,
  orderRow,
  paidOrder,
  placeOrder,
  post,
  SANDBOX_CARD,
  type Shop,
} from "../../test/payments.js";
import { productStock, setStockDirectly } from "../../test/products.js";
import { until } from "../../test/until.js";
import { fromShop, signUp, type TestUser } from "../../test/users.js";
import { ORDER_ACTIONS, type OrderAction, toState, verdict } from "./lifecycle.js";

const RATE_LIMIT = { rateLimit: { max: 100_000, windowSeconds: 60 } };

// A hold of half an hour, and the expiry job every 200 ms: a test makes an order due by moving its
// hold's end into the past, and waits for the job.
const ctx = setUpTestApp({ ORDER_HOLD_HOURS: "0.5", ORDER_EXPIRY_INTERVAL_SECONDS: "0.2" }, RATE_LIMIT);
const alice = ctx.signedUpUser({ name: "Alice Lifecycle" });
const admin = ctx.signedUpAdmin();

const db = () => ctx.database.db;
const stockOf = (shop: Shop, productId: string | null) => productStock(shop.database.db, productId);
const sandboxIntentsOf = (shop: Shop, orderId: string) =>
  shop.database.db.select().from(sandboxIntents).where(eq(sandboxIntents.orderId, orderId));
const refundsOf = (shop: Shop, intentId: string) =>
  shop.database.db.select().from(refunds).where(eq(refunds.intentId, intentId));

const ship = (shop: Shop, id: string, body?: object) => post(shop, admin, `/api/orders/${id}/ship`, body);
const refund = (shop: Shop, id: string, user: TestUser = admin) =>
  post(shop, user, `/api/orders/${id}/refund`);
const remove = (shop: Shop, id: string, user: TestUser) =>
  fromShop(shop.app, "DELETE", `/api/orders/${id}`, user.cookie);

/** Moves the hold's end of an order into the past: the next run of the expiry job takes it. */
const makeDue = (shop: Shop, id: string) =>
  shop.database.db
    .update(orders)
    .set({ expiresAt: new Date(Date.now() - 1000) })
    .where(eq(orders.id, id));
const untilStatus = (shop: Shop, id: string, status: OrderStatus) =>
  until(`order ${id} ${status}`, async () => (await orderRow(shop, id))?.status === status, 30_000);

/** An order of Alice's in `status`, made through the API and the expiry job. */
async function orderIn(status: OrderStatus): Promise<Order> {
  if (status === "pending") return placeOrder(ctx, alice);
  if (status === "expired") {
    const order = await placeOrder(ctx, alice);
    await makeDue(ctx, order.id);
    await untilStatus(ctx, order.id, "expired");
    return order;
  }
  const order = await paidOrder(ctx, alice);
  if (status === "shipped") expect((await ship(ctx, order.id)).statusCode).toBe(200);
  if (status === "refunded") expect((await refund(ctx, order.id)).statusCode).toBe(200);
  return order;
}

describe("the lifecycle's table", () => {
  it("moves pending by pay, expire and remove, paid by ship and refund, and nothing else", () => {
    const moves = ORDER_STATUSES.flatMap((status) =>
      ORDER_ACTIONS.filter((action) => verdict(status, action).kind === "move").map(
        (action) => `${status} -${action}-> ${toState(action)}`,
      ),
    );
    expect(moves).toEqual([
      "pending -pay-> paid",
      "pending -expire-> expired",
      "pending -remove-> removed",
      "paid -ship-> shipped",
      "paid -refund-> refunded",
    ]);
    for (const status of ORDER_STATUSES) {
      for (const action of ORDER_ACTIONS) {
        const v = verdict(status, action);
        if (v.kind === "refused") expect(v.problem.status).toBe(409);
      }
    }
  });
});

/** What each (state, action) pair answers through the API or the job: a status and a detail or a new state. */
const EXPECTED: Record<OrderStatus, Record<OrderAction, { code: number; detail?: string; state: string }>> = {
  pending: {
    pay: { code: 200, state: "paid" },
    expire: { code: 0, state: "expired" },
    remove: { code: 204, state: "removed" },
    ship: { code: 409, detail: orderMessages.lifecycle.notPaidForShipping, state: "pending" },
    refund: { code: 409, detail: orderMessages.lifecycle.notPaidForRefund, state: "pending" },
  },
  paid: {
    pay: { code: 409, detail: paymentMessages.alreadyPaid, state: "paid" },
    expire: { code: 0, state: "paid" },
    remove: { code: 409, detail: orderMessages.alreadyPaid, state: "paid" },
    ship: { code: 200, state: "shipped" },
    refund: { code: 200, state: "refunded" },
  },
  shipped: {
    pay: { code: 409, detail: paymentMessages.alreadyPaid, state: "shipped" },
    expire: { code: 0, state: "shipped" },
    remove: { code: 409, detail: orderMessages.alreadyPaid, state: "shipped" },
    ship: { code: 200, state: "shipped" },
    refund: { code: 409, detail: orderMessages.lifecycle.shippedNoRefund, state: "shipped" },
  },
  refunded: {
    pay: { code: 409, detail: orderMessages.lifecycle.refunded, state: "refunded" },
    expire: { code: 0, state: "refunded" },
    remove: { code: 409, detail: orderMessages.lifecycle.refunded, state: "refunded" },
    ship: { code: 409, detail: orderMessages.lifecycle.refunded, state: "refunded" },
    refund: { code: 200, state: "refunded" },
  },
  expired: {
    pay: { code: 409, detail: orderMessages.lifecycle.expired, state: "expired" },
    expire: { code: 0, state: "expired" },
    remove: { code: 409, detail: orderMessages.lifecycle.expired, state: "expired" },
    ship: { code: 409, detail: orderMessages.lifecycle.expired, state: "expired" },
    refund: { code: 409, detail: orderMessages.lifecycle.expired, state: "expired" },
  },
};

/** Runs one action on an order; the answer's status (0 for the expiry job) and detail. */
async function act(order: Order, action: OrderAction): Promise<{ code: number; detail?: string }> {
  const answer = async (res: Awaited<ReturnType<typeof post>>) => ({
    code: res.statusCode,
    detail: res.statusCode >= 400 ? res.json().detail : undefined,
  });
  switch (action) {
    case "pay": {
      // The payment page's intent is where paying starts: an order that cannot be paid gets none.
      const intent = await post(ctx, alice, `/api/orders/${order.id}/payment-intent`);
      if (intent.statusCode !== 200) return answer(intent);
      const transactionId = await confirmWithCard(ctx, alice, order.id);
      return answer(await post(ctx, alice, `/api/orders/${order.id}/pay`, { transactionId }));
    }
    case "expire": {
      // A due pending order booked alongside: once the job expired it, it has passed this one too.
      const witness = await placeOrder(ctx, alice);
      await makeDue(ctx, order.id);
      await makeDue(ctx, witness.id);
      await untilStatus(ctx, witness.id, "expired");
      return { code: 0 };
    }
    case "remove":
      return answer(await remove(ctx, order.id, alice));
    case "ship":
      return answer(await ship(ctx, order.id));
    case "refund":
      return answer(await refund(ctx, order.id));
  }
}

describe("every (state, action) pair through the API and the expiry job", () => {
  for (const status of ORDER_STATUSES) {
    for (const action of ORDER_ACTIONS) {
      const expected = EXPECTED[status][action];
      it(`${action} on ${status}: ${expected.code || "job"} -> ${expected.state}`, async () => {
        const order = await orderIn(status);
        const stockBefore = await stockOf(ctx, order.productId);
        const result = await act(order, action);
        expect(result.code).toBe(expected.code);
        if (expected.detail) expect(result.detail).toBe(expected.detail);
        const row = await orderRow(ctx, order.id);
        expect(row?.status ?? "removed").toBe(expected.state);
        const givesBack =
          ["removed", "expired", "refunded"].includes(expected.state) && expected.state !== status;
        expect(await stockOf(ctx, order.productId)).toBe(
          (stockBefore ?? 0) + (givesBack ? order.quantity : 0),
        );
      });
    }
  }
});

describe("holds that expire", () => {
  it("sets the hold's end at booking, ORDER_HOLD_HOURS after it", async () => {
    const order = await placeOrder(ctx, alice);
    expect(order.status).toBe("pending");
    const held = Date.parse(order.expiresAt ?? "") - Date.parse(order.createdAt);
    expect(held).toBe(30 * 60 * 1000);
  });

  it("expires a due order: units back, intent cancelled, no payment any more", async () => {
    const order = await placeOrder(ctx, alice);
    const intent = await intentFor(ctx, alice, order.id);
    await makeDue(ctx, order.id);
    // Before the job has run, the order can no longer be paid.
    const early = await post(ctx, alice, "/api/payments/sandbox/confirm", {
      clientSecret: intent.clientSecret,
      card: SANDBOX_CARD,
      billing: { name: "Alice", email: alice.email },
    });
    expect(early.statusCode).toBe(409);
    expect(early.json().detail).toBe(orderMessages.lifecycle.expired);
    await untilStatus(ctx, order.id, "expired");
    const row = await orderRow(ctx, order.id);
    expect(row?.expiredAt).toBeInstanceOf(Date);
    expect(await stockOf(ctx, order.productId)).toBe(1000);
    await expect.poll(async () => (await sandboxIntentsOf(ctx, order.id))[0]?.status).toBe("canceled");
    const seen = await ctx.app.inject({
      method: "GET",
      url: `/api/orders/${order.id}`,
      headers: { cookie: alice.cookie },
    });
    expect(seen.json()).toMatchObject({ status: "expired", expiresAt: null, paid: false });
  });

  it("refunds a payment that succeeded just as the order expired, and never pays it", async () => {
    const order = await placeOrder(ctx, alice);
    // The card is accepted, but the tab closed before /pay; then the hold runs out.
    const transactionId = await confirmWithCard(ctx, alice, order.id);
    await makeDue(ctx, order.id);
    await untilStatus(ctx, order.id, "expired");
    await expect
      .poll(async () => refundsOf(ctx, transactionId))
      .toMatchObject([{ orderId: order.id, reason: "order_expired", amount: order.totalPrice * 100 }]);
    const late = await post(ctx, alice, `/api/orders/${order.id}/pay`, { transactionId });
    expect(late.statusCode).toBe(409);
    expect(late.json().detail).toBe(orderMessages.lifecycle.expired);
    expect(await refundsOf(ctx, transactionId)).toHaveLength(1);
    expect((await sandboxIntentsOf(ctx, order.id))[0]?.refundId).toMatch(/^re_sandbox_/);
    expect(await orderRow(ctx, order.id)).toMatchObject({ status: "expired", transactionId: null });
  });

  it("never expires a paid order, even past its hold", async () => {
    const order = await paidOrder(ctx, alice);
    const witness = await placeOrder(ctx, alice);
    await makeDue(ctx, order.id);
    await makeDue(ctx, witness.id);
    await untilStatus(ctx, witness.id, "expired");
    expect(await orderRow(ctx, order.id)).toMatchObject({ status: "paid" });
  });

  it("expires a freshly booked order by itself with a short hold (ORDER_HOLD_HOURS fractional)", async () => {
    const shop: TestContext = await createTestApp(
      { ORDER_HOLD_HOURS: String(2 / 3600), ORDER_EXPIRY_INTERVAL_SECONDS: "0.2" },
      RATE_LIMIT,
    );
    try {
      const carol = await signUp(shop.app, { name: "Carol Short Hold" });
      const order = await placeOrder(shop, carol);
      expect(Date.parse(order.expiresAt ?? "") - Date.parse(order.createdAt)).toBe(2000);
      await untilStatus(shop, order.id, "expired");
      expect(await stockOf(shop, order.productId)).toBe(1000);
    } finally {
      await shop.close();
    }
  });

  it("expires each due order once with two instances on one database", async () => {
    // A second instance on this test's database, its expiry job running every 100 ms.
    const database = createDatabase(ctx.url, { max: 4 });
    const config = { ...ctx.config, orders: { ...ctx.config.orders, expiryIntervalSeconds: 0.1 } };
    const other = await buildApp(config, database, { logger: false });
    await other.ready();
    try {
      const first = await placeOrder(ctx, alice);
      const productId = first.productId ?? "";
      for (let i = 1; i < 30; i += 1) {
        const res = await post(ctx, alice, "/api/orders", {
          productId,
          quantity: 10,
          address: "1 Loop Road",
          phone: "5550123",
        });
        expect(res.statusCode).toBe(201);
      }
      expect(await stockOf(ctx, productId)).toBe(700);
      await db()
        .update(orders)
        .set({ expiresAt: sql`now() - interval '1 second'` })
        .where(eq(orders.productId, productId));
      await until("all 30 expired", async () => {
        const rows = await db()
          .select({ id: orders.id })
          .from(orders)
          .where(and(eq(orders.productId, productId), eq(orders.status, "expired")));
        return rows.length === 30;
      });
      // Each order's units came back exactly once.
      expect(await stockOf(ctx, productId)).toBe(1000);
    } finally {
      await other.close();
      await database.close();
    }
  });
});

describe("a cap on what one customer holds unpaid", () => {
  const capped = () => createTestApp({ ORDER_MAX_UNPAID: "5", ORDER_MAX_UNPAID_UNITS: "1000" }, RATE_LIMIT);

  it("refuses a sixth unpaid order and too many units with 409 and the reason, and counts only what holds", async () => {
    const shop = await capped();
    try {
      const dave = await signUp(shop.app, { name: "Dave Capped" });
      const five = [];
      for (let i = 0; i < 5; i += 1) five.push(await placeOrder(shop, dave));
      const [product] = await shop.database.db
        .select()
        .from(products)
        .where(eq(products.id, five[0]?.productId ?? ""));
      const book = (customer: TestUser, quantity: number) =>
        post(shop, customer, "/api/orders", {
          productId: product?.id,
          quantity,
          address: "1 Loop Road",
          phone: "5550123",
        });
      const sixth = await book(dave, 10);
      expect(sixth.statusCode).toBe(409);
      expect(sixth.json().detail).toBe(orderMessages.lifecycle.tooManyUnpaid(5));
      expect(await stockOf(shop, product?.id ?? null)).toBe(990);

      // Paying one and removing one free their places.
      const first = five[0];
      const second = five[1];
      if (!first || !second) throw new Error("five orders");
      const paid = await confirmWithCard(shop, dave, first.id);
      expect(
        (await post(shop, dave, `/api/orders/${first.id}/pay`, { transactionId: paid })).statusCode,
      ).toBe(200);
      expect((await remove(shop, second.id, dave)).statusCode).toBe(204);
      expect((await book(dave, 10)).statusCode).toBe(201);
      expect((await book(dave, 10)).statusCode).toBe(201);
      expect((await book(dave, 10)).statusCode).toBe(409);

      // Units: a fresh customer holds 990, and 20 more would pass 1,000.
      const erin = await signUp(shop.app, { name: "Erin Capped" });
      await setStockDirectly(shop.database.db, eq(products.id, product?.id ?? ""), 100_000);
      const big = await book(erin, 490);
      expect(big.statusCode).toBe(201);
      const more = await book(erin, 500);
      expect(more.statusCode).toBe(201);
      const over = await book(erin, 20);
      expect(over.statusCode).toBe(409);
      expect(over.json().detail).toBe(orderMessages.lifecycle.tooManyUnits("1,000", "990"));
      const fits = await book(erin, 10);
      expect(fits.statusCode).toBe(201);
    } finally {
      await shop.close();
    }
  });

  it("holds under 20 concurrent bookings of one customer, with and without Idempotency-Keys", async () => {
    const shop = await capped();
    try {
      const frank = await signUp(shop.app, { name: "Frank Racing" });
      const [product] = await shop.database.db
        .insert(products)
        .values({
          name: "Cap race",
          description: "d",
          image: "/media/products/x.svg",
          price: 3,
          quantity: 10_000,
          category: "mice",
        })
        .returning({ id: products.id });
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          shop.app.inject({
            method: "POST",
            url: "/api/orders",
            headers: {
              cookie: frank.cookie,
              origin: "http://localhost:3000",
              ...(i % 2 ? { "idempotency-key": `cap-${i}` } : {}),
            },
            payload: { productId: product?.id, quantity: 10, address: "1 Loop Road", phone: "5550123" },
          }),
        ),
      );
      const codes = answers.map((r) => r.statusCode).sort();
      expect(codes.filter((c) => c === 201)).toHaveLength(5);
      expect(codes.filter((c) => c === 409)).toHaveLength(15);
      expect(await stockOf(shop, product?.id ?? null)).toBe(10_000 - 50);
    } finally {
      await shop.close();
    }
  });
});

describe("removal cancels the payment at the provider", () => {
  it("cancels the order's open intent when the customer removes it", async () => {
    const order = await placeOrder(ctx, alice);
    await intentFor(ctx, alice, order.id);
    expect((await remove(ctx, order.id, alice)).statusCode).toBe(204);
    expect(await sandboxIntentsOf(ctx, order.id)).toMatchObject([{ status: "canceled" }]);
  });

  it("cancels it when an admin removes the order", async () => {
    const order = await placeOrder(ctx, alice);
    await intentFor(ctx, alice, order.id);
    expect((await remove(ctx, order.id, admin)).statusCode).toBe(204);
    expect(await sandboxIntentsOf(ctx, order.id)).toMatchObject([{ status: "canceled" }]);
  });

  it("refunds a payment that succeeded before the removal reached the provider", async () => {
    const order = await placeOrder(ctx, alice);
    const transactionId = await confirmWithCard(ctx, alice, order.id);
    expect((await remove(ctx, order.id, alice)).statusCode).toBe(204);
    expect(await refundsOf(ctx, transactionId)).toMatchObject([
      { orderId: null, reason: "order_removed", amount: order.totalPrice * 100 },
    ]);
    expect((await sandboxIntentsOf(ctx, order.id))[0]).toMatchObject({
      status: "succeeded",
      refundId: expect.any(String),
    });
  });
});

describe("POST /api/orders/:id/refund", () => {
  it("refunds a paid order in full: refunded, units back, the refund recorded with the provider's id", async () => {
    const order = await paidOrder(ctx, alice);
    expect(await stockOf(ctx, order.productId)).toBe(990);
    const res = await refund(ctx, order.id);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: "refunded", paid: true, refundedAt: expect.any(String) });
    expect(await stockOf(ctx, order.productId)).toBe(1000);
    const [intent] = await sandboxIntentsOf(ctx, order.id);
    expect(await refundsOf(ctx, order.transactionId ?? "")).toMatchObject([
      {
        orderId: order.id,
        reason: "admin",
        amount: order.totalPrice * 100,
        providerRefundId: intent?.refundId,
      },
    ]);
  });

  it("answers the refunded order again when asked twice, and five at once make one refund", async () => {
    const order = await paidOrder(ctx, alice);
    const answers = await Promise.all(Array.from({ length: 5 }, () => refund(ctx, order.id)));
    expect(answers.map((r) => r.statusCode)).toEqual(Array(5).fill(200));
    const again = await refund(ctx, order.id);
    expect(again.json()).toEqual(answers[0]?.json());
    expect(await refundsOf(ctx, order.transactionId ?? "")).toHaveLength(1);
    expect(await stockOf(ctx, order.productId)).toBe(1000);
  });

  it("is for admins only (403 to the customer, 401 to a visitor), changing nothing", async () => {
    const order = await paidOrder(ctx, alice);
    expect((await refund(ctx, order.id, alice)).statusCode).toBe(403);
    expect(
      (
        await ctx.app.inject({
          method: "POST",
          url: `/api/orders/${order.id}/refund`,
          headers: { origin: "http://localhost:3000" },
        })
      ).statusCode,
    ).toBe(401);
    expect(await orderRow(ctx, order.id)).toMatchObject({ status: "paid", refundedAt: null });
    expect((await refund(ctx, "00000000-0000-4000-8000-000000000000")).statusCode).toBe(404);
  });
});

describe("POST /api/orders/:id/ship with a carrier and a tracking number", () => {
  it("stores and answers them; the same again answers the order, others are refused", async () => {
    const order = await paidOrder(ctx, alice);
    const res = await ship(ctx, order.id, { carrier: " UPS ", trackingNumber: "1Z 999-AA1" });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      status: "shipped",
      carrier: "UPS",
      trackingNumber: "1Z 999-AA1",
      shippedAt: expect.any(String),
    });
    const again = await ship(ctx, order.id, { carrier: "UPS", trackingNumber: "1Z 999-AA1" });
    expect(again.json()).toEqual(res.json());
    expect((await ship(ctx, order.id)).statusCode).toBe(200);
    const other = await ship(ctx, order.id, { carrier: "DHL" });
    expect(other.statusCode).toBe(409);
    expect(other.json().detail).toBe(orderMessages.lifecycle.alreadyShipped);
  });

  it("refuses invalid details with 400 per field and changes nothing", async () => {
    const order = await paidOrder(ctx, alice);
    const cases: [object, string, string][] = [
      [{ trackingNumber: "1Z999" }, "carrier", orderMessages.ship.carrierRequired],
      [{ carrier: "x".repeat(CARRIER_MAX_LENGTH + 1) }, "carrier", orderMessages.ship.carrierTooLong],
      [
        { carrier: "UPS", trackingNumber: "1".repeat(TRACKING_NUMBER_MAX_LENGTH + 1) },
        "trackingNumber",
        orderMessages.ship.trackingTooLong,
      ],
      [{ carrier: "UPS", trackingNumber: "<script>" }, "trackingNumber", orderMessages.ship.trackingInvalid],
    ];
    for (const [body, path, message] of cases) {
      const res = await ship(ctx, order.id, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.headers["content-type"]).toContain("application/problem+json");
      expect(res.json().errors).toContainEqual({ path, message });
    }
    expect(await orderRow(ctx, order.id)).toMatchObject({
      status: "paid",
      shippedAt: null,
      carrier: null,
      trackingNumber: null,
    });
  });
});

describe("the admin overview's counts with the new states", () => {
  it("equal full counts of every status", async () => {
    const counts = await db()
      .select({ key: overviewCounts.key, n: sql<number>`sum(${overviewCounts.n})::int` })
      .from(overviewCounts)
      .groupBy(overviewCounts.key);
    const actual = await db()
      .select({ status: orders.status, n: sql<number>`count(*)::int` })
      .from(orders)
      .groupBy(orders.status);
    for (const status of ORDER_STATUSES) {
      const counted = counts.find((c) => c.key === `orders:${status}`)?.n ?? 0;
      expect(counted, status).toBe(actual.find((a) => a.status === status)?.n ?? 0);
    }
    expect(actual.map((a) => a.status)).toEqual(expect.arrayContaining(["refunded", "expired"]));
  });
});
