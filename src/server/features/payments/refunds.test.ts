import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { orderMessages } from "../../../shared/messages/orders.js";
import { paymentMessages } from "../../../shared/messages/payments.js";
import { orders, paymentEvents, refunds } from "../../db/schema/index.js";
import { setUpTestApp } from "../../test/app.js";
import {
  intentFor,
  orderRow,
  placeOrder,
  post,
  setUpStripeStandIn,
  standInIntent,
  stripeEnv,
  succeededIntent,
  webhook,
} from "../../test/payments.js";
import { productStock } from "../../test/products.js";
import { until } from "../../test/until.js";
import { fromShop } from "../../test/users.js";

// Cancellations and refunds through Stripe (the stand-in): what the sandbox does in
// orders/lifecycle.test.ts, here with Stripe's API and its webhooks.

const standIn = setUpStripeStandIn();
const ctx = setUpTestApp(() => stripeEnv(standIn, { ORDER_EXPIRY_INTERVAL_SECONDS: "0.2" }), {
  rateLimit: { max: 10_000, windowSeconds: 60 },
});
const alice = ctx.signedUpUser({ name: "Alice Refunds" });
const admin = ctx.signedUpAdmin();

const refundsOf = (intentId: string) =>
  ctx.database.db.select().from(refunds).where(eq(refunds.intentId, intentId));
const refundsAtStripe = (intentId: string) =>
  [...standIn.refunds.values()].filter((r) => r.payment_intent === intentId);
const stockOf = (productId: string | null) => productStock(ctx.database.db, productId);

/** An order of Alice's whose intent succeeded at Stripe (not yet reported); its intent id. */
async function chargedOrder() {
  const order = await placeOrder(ctx, alice);
  const intent = standInIntent(standIn, await intentFor(ctx, alice, order.id));
  standIn.succeed(intent.id);
  return { order, intentId: intent.id };
}

async function paidOrder() {
  const { order, intentId } = await chargedOrder();
  const res = await post(ctx, alice, `/api/orders/${order.id}/pay`, { transactionId: intentId });
  expect(res.statusCode).toBe(200);
  return { order, intentId };
}

describe("cancellations reach Stripe", () => {
  it("cancels the intent of a removed order", async () => {
    const order = await placeOrder(ctx, alice);
    const intent = standInIntent(standIn, await intentFor(ctx, alice, order.id));
    expect((await fromShop(ctx.app, "DELETE", `/api/orders/${order.id}`, alice.cookie)).statusCode).toBe(204);
    expect(standIn.intents.get(intent.id)?.status).toBe("canceled");
  });

  it("cancels the intent of an expired order", async () => {
    const order = await placeOrder(ctx, alice);
    const intent = standInIntent(standIn, await intentFor(ctx, alice, order.id));
    await ctx.database.db
      .update(orders)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(orders.id, order.id));
    await expect.poll(() => standIn.intents.get(intent.id)?.status, { timeout: 20_000 }).toBe("canceled");
    expect(await orderRow(ctx, order.id)).toMatchObject({ status: "expired" });
    const again = await post(ctx, alice, `/api/orders/${order.id}/payment-intent`);
    expect(again.statusCode).toBe(409);
    expect(again.json().detail).toBe(orderMessages.lifecycle.expired);
  });
});

describe("automatic refunds", () => {
  it("refunds a payment that succeeded for an order removed meanwhile", async () => {
    const { order, intentId } = await chargedOrder();
    expect((await fromShop(ctx.app, "DELETE", `/api/orders/${order.id}`, alice.cookie)).statusCode).toBe(204);
    expect(refundsAtStripe(intentId)).toHaveLength(1);
    expect(await refundsOf(intentId)).toMatchObject([{ orderId: null, reason: "order_removed" }]);
    // Its webhook comes late: nothing more.
    const event = await webhook(ctx, standIn.eventPayload("payment_intent.succeeded", intentId));
    expect(event.statusCode).toBe(200);
    expect(refundsAtStripe(intentId)).toHaveLength(1);
  });

  it("refunds a success reported by webhook for an order that is gone", async () => {
    const { order, intentId } = await chargedOrder();
    // Removed while the card was being charged (the removal's cancellation lost the race).
    await ctx.database.db.delete(orders).where(eq(orders.id, order.id));
    const res = await webhook(ctx, standIn.eventPayload("payment_intent.succeeded", intentId));
    expect(res.statusCode).toBe(200);
    expect(refundsAtStripe(intentId)).toMatchObject([{ amount: order.totalPrice * 100 }]);
    expect(await refundsOf(intentId)).toMatchObject([{ orderId: null, reason: "order_removed" }]);
  });

  it("refunds a payment that succeeded as the order expired, once, whatever reports it", async () => {
    const { order, intentId } = await chargedOrder();
    await ctx.database.db
      .update(orders)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(orders.id, order.id));
    await until("expired", async () => (await orderRow(ctx, order.id))?.status === "expired");
    await expect.poll(() => refundsAtStripe(intentId).length).toBe(1);
    expect((await webhook(ctx, standIn.eventPayload("payment_intent.succeeded", intentId))).statusCode).toBe(
      200,
    );
    const pay = await post(ctx, alice, `/api/orders/${order.id}/pay`, { transactionId: intentId });
    expect(pay.statusCode).toBe(409);
    expect(refundsAtStripe(intentId)).toHaveLength(1);
    expect(await refundsOf(intentId)).toMatchObject([{ orderId: order.id, reason: "order_expired" }]);
    expect(await orderRow(ctx, order.id)).toMatchObject({ status: "expired", transactionId: null });
  });

  it("refunds a second charge of a paid order, reported by /pay or by webhook", async () => {
    const { order, intentId } = await paidOrder();
    const second = succeededIntent(standIn, order.id, order.totalPrice * 100);
    const res = await post(ctx, alice, `/api/orders/${order.id}/pay`, { transactionId: second.id });
    expect(res.statusCode).toBe(409);
    expect(res.json().detail).toBe(paymentMessages.alreadyPaid);
    expect(refundsAtStripe(second.id)).toHaveLength(1);
    expect(await refundsOf(second.id)).toMatchObject([{ orderId: order.id, reason: "duplicate_charge" }]);

    const third = succeededIntent(standIn, order.id, order.totalPrice * 100);
    expect((await webhook(ctx, standIn.eventPayload("payment_intent.succeeded", third.id))).statusCode).toBe(
      200,
    );
    expect(refundsAtStripe(third.id)).toHaveLength(1);
    expect(await refundsOf(third.id)).toMatchObject([{ reason: "duplicate_charge" }]);
    // The first payment stands.
    expect(refundsAtStripe(intentId)).toHaveLength(0);
    expect(await orderRow(ctx, order.id)).toMatchObject({ status: "paid", transactionId: intentId });
  });
});

describe("refunds by the admin and at Stripe", () => {
  it("refunds through Stripe's refunds API under one idempotency key per intent", async () => {
    const { order, intentId } = await paidOrder();
    const answers = await Promise.all(
      [1, 2, 3].map(() => post(ctx, admin, `/api/orders/${order.id}/refund`)),
    );
    expect(answers.map((r) => r.statusCode)).toEqual([200, 200, 200]);
    expect(answers[0]?.json()).toMatchObject({ status: "refunded" });
    const made = refundsAtStripe(intentId);
    expect(made).toHaveLength(1);
    expect(await refundsOf(intentId)).toMatchObject([{ reason: "admin", providerRefundId: made[0]?.id }]);
    const calls = standIn.requests.filter((r) => r.path === "/v1/refunds" && r.method === "POST");
    expect(new Set(calls.map((r) => r.idempotencyKey))).toContain(`gearhouse-refund-${intentId}`);
    // Stripe's charge.refunded about it changes nothing.
    expect((await webhook(ctx, standIn.refundEventPayload("charge.refunded", intentId))).statusCode).toBe(
      200,
    );
    expect(await refundsOf(intentId)).toHaveLength(1);
    expect(await stockOf(order.productId)).toBe(1000);
  });

  it("applies a refund made at Stripe's dashboard from its verified webhook, once", async () => {
    const { order, intentId } = await paidOrder();
    const made = standIn.refundAtDashboard(intentId);
    const payload = standIn.refundEventPayload("charge.refunded", intentId);
    for (let i = 0; i < 3; i += 1) expect((await webhook(ctx, payload)).statusCode).toBe(200);
    expect(await orderRow(ctx, order.id)).toMatchObject({ status: "refunded", refundedAt: expect.any(Date) });
    expect(await stockOf(order.productId)).toBe(1000);
    expect(await refundsOf(intentId)).toMatchObject([
      { providerRefundId: made.id, reason: "admin", orderId: order.id },
    ]);
    const updated = standIn.refundEventPayload("refund.updated", intentId);
    expect((await webhook(ctx, updated)).statusCode).toBe(200);
    expect(await refundsOf(intentId)).toHaveLength(1);
    expect(await stockOf(order.productId)).toBe(1000);
    const seen = await ctx.database.db
      .select()
      .from(paymentEvents)
      .where(eq(paymentEvents.type, "refund.updated"));
    expect(seen.length).toBeGreaterThan(0);
  });

  it("pays no order with a charge refunded at the dashboard before the shop heard of the payment", async () => {
    // The tab closed after the card, Stripe's success event is delayed, and staff refund the charge.
    const { order, intentId } = await chargedOrder();
    const made = standIn.refundAtDashboard(intentId);
    expect((await webhook(ctx, standIn.refundEventPayload("charge.refunded", intentId))).statusCode).toBe(
      200,
    );
    expect((await webhook(ctx, standIn.eventPayload("payment_intent.succeeded", intentId))).statusCode).toBe(
      200,
    );
    const pay = await post(ctx, alice, `/api/orders/${order.id}/pay`, { transactionId: intentId });
    expect(pay.statusCode).toBe(400);
    expect(pay.json().detail).toBe(paymentMessages.intentMismatch);
    // Still unpaid, holding its units; the refund recorded once, as Stripe made it.
    expect(await orderRow(ctx, order.id)).toMatchObject({ status: "pending", transactionId: null });
    expect(await stockOf(order.productId)).toBe(990);
    expect(await refundsOf(intentId)).toMatchObject([{ providerRefundId: made.id, orderId: null }]);
    expect(refundsAtStripe(intentId)).toHaveLength(1);
  });

  it("refuses an unsigned refund event with 400 and changes nothing", async () => {
    const { order, intentId } = await paidOrder();
    standIn.refundAtDashboard(intentId);
    const res = await webhook(ctx, standIn.refundEventPayload("charge.refunded", intentId), "t=1,v1=bad");
    expect(res.statusCode).toBe(400);
    expect(await orderRow(ctx, order.id)).toMatchObject({ status: "paid" });
    expect(await refundsOf(intentId)).toHaveLength(0);
  });

  it("records a dashboard refund of a shipped order, which stays shipped", async () => {
    const { order, intentId } = await paidOrder();
    expect((await post(ctx, admin, `/api/orders/${order.id}/ship`)).statusCode).toBe(200);
    standIn.refundAtDashboard(intentId);
    expect((await webhook(ctx, standIn.refundEventPayload("charge.refunded", intentId))).statusCode).toBe(
      200,
    );
    expect(await orderRow(ctx, order.id)).toMatchObject({ status: "shipped" });
    expect(await refundsOf(intentId)).toHaveLength(1);
  });
});
