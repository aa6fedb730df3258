import { eq } from "drizzle-orm";
import Stripe from "stripe";
import { describe, expect, it } from "vitest";
import { paymentMessages } from "../../../shared/messages/payments.js";
import type { PaymentIntent } from "../../../shared/payments.js";
import { paymentEvents } from "../../db/schema/index.js";
import { createTestApp, setUpTestApp } from "../../test/app.js";
import { CONTRACT_CARD, describePaymentContract } from "../../test/payment-contract.js";
import {
  intentFor,
  orderRow,
  paymentsOf,
  placeOrder,
  post,
  STRIPE_PUBLISHABLE_KEY,
  STRIPE_WEBHOOK_SECRET,
  setUpStripeStandIn,
  signEvent,
  standInIntent,
  stripeEnv,
  succeededIntent,
  webhook,
} from "../../test/payments.js";
import { startStripeStandIn } from "../../test/stripe-stand-in.js";
import { signUp } from "../../test/users.js";

const RATE_LIMIT = { rateLimit: { max: 10_000, windowSeconds: 60 } };

const standIn = setUpStripeStandIn();
const ctx = setUpTestApp(() => stripeEnv(standIn), RATE_LIMIT);
const alice = ctx.signedUpUser({ name: "Alice Buyer" });

describePaymentContract(ctx, {
  name: "stripe",
  publishableKey: STRIPE_PUBLISHABLE_KEY,
  intentsOf: async (orderId) =>
    [...standIn.intents.values()]
      .filter((i) => i.metadata.orderId === orderId)
      .map((i) => ({ ...i, clientSecret: i.client_secret })),
  intentId: async (answer) => standInIntent(standIn, answer).id,
  // What Stripe.js's confirmation does in the customer's browser.
  succeed: async (_user, answer) => standIn.succeed(standInIntent(standIn, answer).id, CONTRACT_CARD).id,
  decline: async (_user, answer) => {
    standIn.fail(standInIntent(standIn, answer).id);
  },
  addSucceededIntent: async (order) => succeededIntent(standIn, order.id, order.totalPrice * 100).id,
});

/** Asks the shop for the order's intent and returns it as the stand-in holds it. */
const stripeIntentFor = async (orderId: string) =>
  standInIntent(standIn, await intentFor(ctx, alice, orderId));
const eventRows = (eventId: string) =>
  ctx.database.db.select().from(paymentEvents).where(eq(paymentEvents.id, eventId));

describe("payment intents through Stripe", () => {
  it("creates the intent at Stripe once per order and amount, under one idempotency key", async () => {
    const order = await placeOrder(ctx, alice, 37);
    const answer: PaymentIntent = await intentFor(ctx, alice, order.id);
    const again = await intentFor(ctx, alice, order.id);
    expect(again.clientSecret).toBe(answer.clientSecret);

    const made = [...standIn.intents.values()].filter((i) => i.metadata.orderId === order.id);
    expect(made).toMatchObject([{ amount: 37_000, currency: "usd", client_secret: answer.clientSecret }]);
    const creations = standIn.requests.filter(
      (r) => r.method === "POST" && r.idempotencyKey?.includes(order.id),
    );
    expect(creations).toHaveLength(2);
    expect(new Set(creations.map((r) => r.idempotencyKey)).size).toBe(1);
  });

  it("answers 404 to the sandbox's confirm", async () => {
    const order = await placeOrder(ctx, alice);
    const intent = await stripeIntentFor(order.id);
    const sandbox = await post(ctx, alice, "/api/payments/sandbox/confirm", {
      clientSecret: intent.client_secret,
      card: { number: "4242 4242 4242 4242", expMonth: 12, expYear: 2099, cvc: "123" },
      billing: { name: "Alice", email: "alice@example.com" },
    });
    expect(sandbox.statusCode).toBe(404);
    expect(await orderRow(ctx, order.id)).toMatchObject({ status: "pending" });
  });

  it("refuses an intent of another amount with 400", async () => {
    const order = await placeOrder(ctx, alice);
    const cheaper = succeededIntent(standIn, order.id, 100);
    const res = await post(ctx, alice, `/api/orders/${order.id}/pay`, { transactionId: cheaper.id });
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toBe(paymentMessages.intentMismatch);
    expect(await orderRow(ctx, order.id)).toMatchObject({ status: "pending", transactionId: null });
    expect(await paymentsOf(ctx, order.id)).toHaveLength(0);
  });
});

describe("when Stripe cannot be reached", () => {
  it("answers 502 with a readable message and leaves the order unpaid", async () => {
    const down = await startStripeStandIn();
    const url = down.url;
    await down.close();
    const offline = await createTestApp(stripeEnv(standIn, { STRIPE_API_URL: url }), RATE_LIMIT);
    try {
      const carol = await signUp(offline.app, { name: "Carol Buyer" });
      const order = await placeOrder(offline, carol, 20);
      const intent = await post(offline, carol, `/api/orders/${order.id}/payment-intent`);
      expect(intent.statusCode).toBe(502);
      expect(intent.json().detail).toBe(paymentMessages.providerUnavailable);
      const pay = await post(offline, carol, `/api/orders/${order.id}/pay`, {
        transactionId: "pi_unreachable",
      });
      expect(pay.statusCode).toBe(502);
      expect((await orderRow(offline, order.id))?.status).toBe("pending");
    } finally {
      await offline.close();
    }
  });
});

describe("POST /api/payments/webhook", () => {
  it("refuses a missing, wrong or stale signature and a changed body with 400", async () => {
    const order = await placeOrder(ctx, alice);
    const intent = await stripeIntentFor(order.id);
    standIn.succeed(intent.id);
    const payload = standIn.eventPayload("payment_intent.succeeded", intent.id, "evt_bad_signatures");
    const stale = Stripe.webhooks.generateTestHeaderString({
      payload,
      secret: STRIPE_WEBHOOK_SECRET,
      timestamp: Math.floor(Date.now() / 1000) - 3600,
    });
    const attempts = [
      webhook(ctx, payload, null),
      webhook(ctx, payload, signEvent(payload, "whsec_someone_else")),
      webhook(ctx, payload, "t=1,v1=deadbeef"),
      webhook(ctx, payload, stale),
      webhook(ctx, payload.replace(intent.id, "pi_forged"), signEvent(payload)),
    ];
    for (const res of await Promise.all(attempts)) {
      expect(res.statusCode).toBe(400);
      expect(res.json().detail).toBe(paymentMessages.webhookSignature);
    }
    expect(await orderRow(ctx, order.id)).toMatchObject({ status: "pending" });
    expect(await eventRows("evt_bad_signatures")).toHaveLength(0);
  });

  it("marks the order paid on a signed event, once however often it arrives", async () => {
    const order = await placeOrder(ctx, alice);
    const intent = await stripeIntentFor(order.id);
    standIn.succeed(intent.id, { brand: "amex", last4: "0005" });
    const payload = standIn.eventPayload("payment_intent.succeeded", intent.id, "evt_duplicated");
    const first = await webhook(ctx, payload);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ received: true });
    expect(await orderRow(ctx, order.id)).toMatchObject({ status: "paid", transactionId: intent.id });

    const retrievals = standIn.requests.filter((r) => r.path.endsWith(intent.id)).length;
    const duplicates = await Promise.all(Array.from({ length: 5 }, () => webhook(ctx, payload)));
    expect(duplicates.map((r) => r.statusCode)).toEqual(Array(5).fill(200));
    // A duplicate already recorded is skipped without asking Stripe again.
    expect(standIn.requests.filter((r) => r.path.endsWith(intent.id)).length).toBe(retrievals);
    expect(await eventRows("evt_duplicated")).toHaveLength(1);
    expect(await paymentsOf(ctx, order.id)).toMatchObject([
      { intentId: intent.id, cardBrand: "amex", cardLast4: "0005" },
    ]);
  });

  it("ends in one payment when the webhook comes before /pay, and when they race", async () => {
    const order = await placeOrder(ctx, alice);
    const intent = await stripeIntentFor(order.id);
    standIn.succeed(intent.id);
    expect((await webhook(ctx, standIn.eventPayload("payment_intent.succeeded", intent.id))).statusCode).toBe(
      200,
    );
    const pay = await post(ctx, alice, `/api/orders/${order.id}/pay`, { transactionId: intent.id });
    expect(pay.statusCode).toBe(200);
    expect(pay.json()).toMatchObject({ paid: true, transactionId: intent.id });
    expect(await paymentsOf(ctx, order.id)).toHaveLength(1);

    const raced = await placeOrder(ctx, alice);
    const racedIntent = await stripeIntentFor(raced.id);
    standIn.succeed(racedIntent.id);
    const answers = await Promise.all([
      ...Array.from({ length: 5 }, () =>
        post(ctx, alice, `/api/orders/${raced.id}/pay`, { transactionId: racedIntent.id }),
      ),
      ...["payment_intent.succeeded", "payment_intent.created", "payment_intent.succeeded"].map((type) =>
        webhook(ctx, standIn.eventPayload(type, racedIntent.id)),
      ),
    ]);
    expect(answers.map((r) => r.statusCode)).toEqual(Array(8).fill(200));
    expect(await orderRow(ctx, raced.id)).toMatchObject({ status: "paid", transactionId: racedIntent.id });
    expect(await paymentsOf(ctx, raced.id)).toHaveLength(1);
  });

  it("changes nothing for a failed event arriving after the success, or before it", async () => {
    const order = await placeOrder(ctx, alice);
    const intent = await stripeIntentFor(order.id);
    standIn.fail(intent.id);
    const failed = standIn.eventPayload("payment_intent.payment_failed", intent.id);
    // Delivered while the card is still refused: recorded, nothing to apply.
    expect((await webhook(ctx, failed)).statusCode).toBe(200);
    expect(await orderRow(ctx, order.id)).toMatchObject({ status: "pending" });

    standIn.succeed(intent.id);
    const paid = await post(ctx, alice, `/api/orders/${order.id}/pay`, { transactionId: intent.id });
    expect(paid.statusCode).toBe(200);
    const paidRow = await orderRow(ctx, order.id);

    // An older failure delivered late, under a new event id.
    const late = standIn.eventPayload("payment_intent.payment_failed", intent.id);
    expect(
      (await webhook(ctx, late.replace('"status":"succeeded"', '"status":"requires_payment_method"')))
        .statusCode,
    ).toBe(200);
    expect(await orderRow(ctx, order.id)).toEqual(paidRow);
    expect(await paymentsOf(ctx, order.id)).toMatchObject([{ intentId: intent.id }]);
  });

  it("ignores intents whose amount differs from their order's, and events about other objects", async () => {
    const order = await placeOrder(ctx, alice);
    const cheaper = succeededIntent(standIn, order.id, 100);
    const foreign = succeededIntent(standIn, "not-a-gearhouse-order", 100);
    for (const id of [cheaper.id, foreign.id]) {
      expect((await webhook(ctx, standIn.eventPayload("payment_intent.succeeded", id))).statusCode).toBe(200);
    }
    const customer = JSON.stringify({
      id: "evt_customer",
      object: "event",
      type: "customer.created",
      data: { object: { id: "cus_1", object: "customer" } },
    });
    expect((await webhook(ctx, customer)).statusCode).toBe(200);
    expect(await orderRow(ctx, order.id)).toMatchObject({ status: "pending", transactionId: null });
    expect(await paymentsOf(ctx, order.id)).toHaveLength(0);
  });

  it("answers 404 when no webhook secret is configured", async () => {
    const unsigned = await createTestApp(stripeEnv(standIn, { STRIPE_WEBHOOK_SECRET: "" }), RATE_LIMIT);
    try {
      const payload = JSON.stringify({ id: "evt_x", object: "event", type: "payment_intent.succeeded" });
      const res = await unsigned.app.inject({
        method: "POST",
        url: "/api/payments/webhook",
        headers: { "content-type": "application/json", "stripe-signature": signEvent(payload) },
        payload,
      });
      expect(res.statusCode).toBe(404);
    } finally {
      await unsigned.close();
    }
  });
});

describe("content security policy with Stripe", () => {
  it("lets the browser load Stripe.js, its frames and its API, and nothing more", async () => {
    const res = await ctx.app.inject({ method: "GET", url: "/healthz" });
    const csp = String(res.headers["content-security-policy"]);
    expect(csp).toContain("script-src 'self' https://js.stripe.com;");
    expect(csp).toContain("frame-src https://js.stripe.com https://hooks.stripe.com;");
    expect(csp).toContain("connect-src 'self' https://api.stripe.com;");
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
  });
});
