import { eq } from "drizzle-orm";
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { paymentMessages } from "../../../shared/messages/payments.js";
import type { Order } from "../../../shared/orders.js";
import type { PaymentIntent } from "../../../shared/payments.js";
import { orders, paymentEvents, payments, products } from "../../db/schema/index.js";
import { createTestApp, type TestContext } from "../../test/app.js";
import { type StripeStandIn, startStripeStandIn } from "../../test/stripe-stand-in.js";
import { ORIGIN, signUp, type TestUser } from "../../test/users.js";

const WEBHOOK_SECRET = "whsec_gearhouse_test_secret";
const PUBLISHABLE_KEY = "pk_test_gearhouse";
const RATE_LIMIT = { rateLimit: { max: 10_000, windowSeconds: 60 } };

let standIn: StripeStandIn;
let ctx: TestContext;
let alice: TestUser;
let bob: TestUser;

function stripeEnv(overrides: Record<string, string> = {}): Record<string, string> {
  return {
    STRIPE_SECRET_KEY: standIn.secretKey,
    STRIPE_PUBLISHABLE_KEY: PUBLISHABLE_KEY,
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_API_URL: standIn.url,
    ...overrides,
  };
}

beforeAll(async () => {
  standIn = await startStripeStandIn();
  ctx = await createTestApp(stripeEnv(), RATE_LIMIT);
  alice = await signUp(ctx.app, { name: "Alice Buyer" });
  bob = await signUp(ctx.app, { name: "Bob Buyer" });
});
afterAll(async () => {
  await ctx?.close();
  await standIn?.close();
});

function post(user: TestUser | null, url: string, payload?: unknown) {
  return ctx.app.inject({
    method: "POST",
    url,
    headers: { origin: ORIGIN, ...(user ? { cookie: user.cookie } : {}) },
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  });
}

async function placeOrder(user: TestUser, price = 37): Promise<Order> {
  const [product] = await ctx.database.db
    .insert(products)
    .values({
      name: `Stripe test mouse ${Math.random()}`,
      description: "d",
      image: "/media/products/x.svg",
      price,
      quantity: 1000,
      category: "mice",
    })
    .returning({ id: products.id });
  const res = await post(user, "/api/orders", {
    productId: product?.id,
    quantity: 10,
    address: "1 Loop Road, Austin",
    phone: "5550123",
  });
  expect(res.statusCode).toBe(201);
  return res.json();
}

/** Asks the shop for the order's intent and returns it as the stand-in holds it. */
async function intentFor(user: TestUser, orderId: string) {
  const res = await post(user, `/api/orders/${orderId}/payment-intent`);
  expect(res.statusCode).toBe(200);
  const answer: PaymentIntent = res.json();
  const intent = [...standIn.intents.values()].find((i) => i.client_secret === answer.clientSecret);
  if (!intent) throw new Error("the shop answered a client secret the stand-in never made");
  return intent;
}

/** Posts a webhook signed with the right secret, another signature, or none (null). */
function webhook(payload: string, signature: string | null = sign(payload)) {
  return ctx.app.inject({
    method: "POST",
    url: "/api/payments/webhook",
    headers: {
      "content-type": "application/json",
      ...(signature === null ? {} : { "stripe-signature": signature }),
    },
    payload,
  });
}

function sign(payload: string, secret = WEBHOOK_SECRET): string {
  return Stripe.webhooks.generateTestHeaderString({ payload, secret });
}

const paymentsOf = (orderId: string) =>
  ctx.database.db.select().from(payments).where(eq(payments.orderId, orderId));
const orderRow = async (orderId: string) =>
  (await ctx.database.db.select().from(orders).where(eq(orders.id, orderId)))[0];
const eventRows = (eventId: string) =>
  ctx.database.db.select().from(paymentEvents).where(eq(paymentEvents.id, eventId));

describe("payment intents through Stripe", () => {
  it("creates the intent at Stripe for the order's total in cents, once per order and amount", async () => {
    const order = await placeOrder(alice, 37);
    const res = await post(alice, `/api/orders/${order.id}/payment-intent`, { amount: 1, currency: "eur" });
    expect(res.statusCode).toBe(200);
    const answer: PaymentIntent = res.json();
    expect(answer).toEqual({
      provider: "stripe",
      clientSecret: expect.stringMatching(/^pi_\w+_secret_\w+$/),
      amount: 37_000,
      currency: "usd",
      publishableKey: PUBLISHABLE_KEY,
    });
    const again = await post(alice, `/api/orders/${order.id}/payment-intent`);
    expect(again.json().clientSecret).toBe(answer.clientSecret);

    const made = [...standIn.intents.values()].filter((i) => i.metadata.orderId === order.id);
    expect(made).toMatchObject([{ amount: 37_000, currency: "usd", client_secret: answer.clientSecret }]);
    const creations = standIn.requests.filter(
      (r) => r.method === "POST" && r.idempotencyKey?.includes(order.id),
    );
    expect(creations).toHaveLength(2);
    expect(new Set(creations.map((r) => r.idempotencyKey)).size).toBe(1);
  });

  it("answers 404 for another customer's order and the sandbox's confirm", async () => {
    const order = await placeOrder(alice);
    const intent = await intentFor(alice, order.id);
    standIn.succeed(intent.id);
    expect((await post(bob, `/api/orders/${order.id}/payment-intent`)).statusCode).toBe(404);
    const pay = await post(bob, `/api/orders/${order.id}/pay`, { transactionId: intent.id });
    expect(pay.statusCode).toBe(404);
    const sandbox = await post(alice, "/api/payments/sandbox/confirm", {
      clientSecret: intent.client_secret,
      card: { number: "4242 4242 4242 4242", expMonth: 12, expYear: 2099, cvc: "123" },
      billing: { name: "Alice", email: "alice@example.com" },
    });
    expect(sandbox.statusCode).toBe(404);
    expect(await orderRow(order.id)).toMatchObject({ status: "pending" });
  });

  it("pays only once Stripe says the intent succeeded, reading the card from the charge", async () => {
    const order = await placeOrder(alice);
    const intent = await intentFor(alice, order.id);
    const early = await post(alice, `/api/orders/${order.id}/pay`, { transactionId: intent.id });
    expect(early.statusCode).toBe(402);
    expect(early.json().detail).toBe(paymentMessages.notCompleted);
    standIn.fail(intent.id);
    expect((await post(alice, `/api/orders/${order.id}/pay`, { transactionId: intent.id })).statusCode).toBe(
      402,
    );

    standIn.succeed(intent.id, { brand: "mastercard", last4: "4444" });
    const paid = await post(alice, `/api/orders/${order.id}/pay`, { transactionId: intent.id });
    expect(paid.statusCode).toBe(200);
    expect(paid.json()).toMatchObject({ paid: true, status: "paid", transactionId: intent.id });
    expect(await paymentsOf(order.id)).toMatchObject([
      {
        provider: "stripe",
        intentId: intent.id,
        amount: order.totalPrice * 100,
        currency: "usd",
        cardBrand: "mastercard",
        cardLast4: "4444",
      },
    ]);
    const again = await post(alice, `/api/orders/${order.id}/pay`, { transactionId: intent.id });
    expect(again.statusCode).toBe(200);
    expect((await post(alice, `/api/orders/${order.id}/payment-intent`)).statusCode).toBe(409);
  });

  it("records a payment Stripe took but the shop never heard of when the page is opened again", async () => {
    const order = await placeOrder(alice);
    const intent = await intentFor(alice, order.id);
    // Stripe.js confirmed, then the tab closed before /pay, and no webhook came.
    standIn.succeed(intent.id);
    const reopened = await post(alice, `/api/orders/${order.id}/payment-intent`);
    expect(reopened.statusCode).toBe(409);
    expect(reopened.json().detail).toBe(paymentMessages.alreadyPaid);
    expect(await orderRow(order.id)).toMatchObject({ status: "paid", transactionId: intent.id });
    expect(await paymentsOf(order.id)).toHaveLength(1);
  });

  it("refuses an intent of another order, of another amount, or unknown to Stripe, with 400", async () => {
    const order = await placeOrder(alice);
    const other = await placeOrder(alice);
    const otherIntent = await intentFor(alice, other.id);
    standIn.succeed(otherIntent.id);
    const cheaper = standIn.addIntent({
      amount: 100,
      currency: "usd",
      metadata: { orderId: order.id },
      status: "succeeded",
    });
    for (const transactionId of [otherIntent.id, cheaper.id, "pi_unknown_to_stripe", "../v1/charges"]) {
      const res = await post(alice, `/api/orders/${order.id}/pay`, { transactionId });
      expect(res.statusCode).toBe(400);
      expect(res.json().detail).toBe(paymentMessages.intentMismatch);
    }
    expect(await orderRow(order.id)).toMatchObject({ status: "pending", transactionId: null });
    expect(await paymentsOf(order.id)).toHaveLength(0);
  });
});

describe("when Stripe cannot be reached", () => {
  it("answers 502 with a readable message and leaves the order unpaid", async () => {
    const down = await startStripeStandIn();
    const url = down.url;
    await down.close();
    const offline = await createTestApp(stripeEnv({ STRIPE_API_URL: url }), RATE_LIMIT);
    try {
      const carol = await signUp(offline.app, { name: "Carol Buyer" });
      const [product] = await offline.database.db
        .insert(products)
        .values({
          name: "Offline mouse",
          description: "d",
          image: "/media/products/x.svg",
          price: 20,
          quantity: 100,
          category: "mice",
        })
        .returning({ id: products.id });
      const placed = await offline.app.inject({
        method: "POST",
        url: "/api/orders",
        headers: { origin: ORIGIN, cookie: carol.cookie },
        payload: { productId: product?.id, quantity: 10, address: "1 Loop Road", phone: "5550123" },
      });
      const order: Order = placed.json();
      const headers = { origin: ORIGIN, cookie: carol.cookie };
      const intent = await offline.app.inject({
        method: "POST",
        url: `/api/orders/${order.id}/payment-intent`,
        headers,
      });
      expect(intent.statusCode).toBe(502);
      expect(intent.json().detail).toBe(paymentMessages.providerUnavailable);
      const pay = await offline.app.inject({
        method: "POST",
        url: `/api/orders/${order.id}/pay`,
        headers,
        payload: { transactionId: "pi_unreachable" },
      });
      expect(pay.statusCode).toBe(502);
      const [row] = await offline.database.db.select().from(orders).where(eq(orders.id, order.id));
      expect(row?.status).toBe("pending");
    } finally {
      await offline.close();
    }
  });
});

describe("POST /api/payments/webhook", () => {
  it("refuses a missing, wrong or stale signature and a changed body with 400", async () => {
    const order = await placeOrder(alice);
    const intent = await intentFor(alice, order.id);
    standIn.succeed(intent.id);
    const payload = standIn.eventPayload("payment_intent.succeeded", intent.id, "evt_bad_signatures");
    const stale = Stripe.webhooks.generateTestHeaderString({
      payload,
      secret: WEBHOOK_SECRET,
      timestamp: Math.floor(Date.now() / 1000) - 3600,
    });
    const attempts = [
      webhook(payload, null),
      webhook(payload, sign(payload, "whsec_someone_else")),
      webhook(payload, "t=1,v1=deadbeef"),
      webhook(payload, stale),
      webhook(payload.replace(intent.id, "pi_forged"), sign(payload)),
    ];
    for (const res of await Promise.all(attempts)) {
      expect(res.statusCode).toBe(400);
      expect(res.json().detail).toBe(paymentMessages.webhookSignature);
    }
    expect(await orderRow(order.id)).toMatchObject({ status: "pending" });
    expect(await eventRows("evt_bad_signatures")).toHaveLength(0);
  });

  it("marks the order paid on a signed event, once however often it arrives", async () => {
    const order = await placeOrder(alice);
    const intent = await intentFor(alice, order.id);
    standIn.succeed(intent.id, { brand: "amex", last4: "0005" });
    const payload = standIn.eventPayload("payment_intent.succeeded", intent.id, "evt_duplicated");
    const first = await webhook(payload);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ received: true });
    expect(await orderRow(order.id)).toMatchObject({ status: "paid", transactionId: intent.id });

    const retrievals = standIn.requests.filter((r) => r.path.endsWith(intent.id)).length;
    const duplicates = await Promise.all(Array.from({ length: 5 }, () => webhook(payload)));
    expect(duplicates.map((r) => r.statusCode)).toEqual(Array(5).fill(200));
    // A duplicate already recorded is skipped without asking Stripe again.
    expect(standIn.requests.filter((r) => r.path.endsWith(intent.id)).length).toBe(retrievals);
    expect(await eventRows("evt_duplicated")).toHaveLength(1);
    expect(await paymentsOf(order.id)).toMatchObject([
      { intentId: intent.id, cardBrand: "amex", cardLast4: "0005" },
    ]);
  });

  it("ends in one payment when the webhook comes before /pay, and when they race", async () => {
    const order = await placeOrder(alice);
    const intent = await intentFor(alice, order.id);
    standIn.succeed(intent.id);
    expect((await webhook(standIn.eventPayload("payment_intent.succeeded", intent.id))).statusCode).toBe(200);
    const pay = await post(alice, `/api/orders/${order.id}/pay`, { transactionId: intent.id });
    expect(pay.statusCode).toBe(200);
    expect(pay.json()).toMatchObject({ paid: true, transactionId: intent.id });
    expect(await paymentsOf(order.id)).toHaveLength(1);

    const raced = await placeOrder(alice);
    const racedIntent = await intentFor(alice, raced.id);
    standIn.succeed(racedIntent.id);
    const answers = await Promise.all([
      ...Array.from({ length: 5 }, () =>
        post(alice, `/api/orders/${raced.id}/pay`, { transactionId: racedIntent.id }),
      ),
      ...["payment_intent.succeeded", "payment_intent.created", "payment_intent.succeeded"].map((type) =>
        webhook(standIn.eventPayload(type, racedIntent.id)),
      ),
    ]);
    expect(answers.map((r) => r.statusCode)).toEqual(Array(8).fill(200));
    expect(await orderRow(raced.id)).toMatchObject({ status: "paid", transactionId: racedIntent.id });
    expect(await paymentsOf(raced.id)).toHaveLength(1);
  });

  it("changes nothing for a failed event arriving after the success, or before it", async () => {
    const order = await placeOrder(alice);
    const intent = await intentFor(alice, order.id);
    standIn.fail(intent.id);
    const failed = standIn.eventPayload("payment_intent.payment_failed", intent.id);
    // Delivered while the card is still refused: recorded, nothing to apply.
    expect((await webhook(failed)).statusCode).toBe(200);
    expect(await orderRow(order.id)).toMatchObject({ status: "pending" });

    standIn.succeed(intent.id);
    const paid = await post(alice, `/api/orders/${order.id}/pay`, { transactionId: intent.id });
    expect(paid.statusCode).toBe(200);
    const paidRow = await orderRow(order.id);

    // An older failure delivered late, under a new event id.
    const late = standIn.eventPayload("payment_intent.payment_failed", intent.id);
    expect(
      (await webhook(late.replace('"status":"succeeded"', '"status":"requires_payment_method"'))).statusCode,
    ).toBe(200);
    expect(await orderRow(order.id)).toEqual(paidRow);
    expect(await paymentsOf(order.id)).toMatchObject([{ intentId: intent.id }]);
  });

  it("ignores intents whose amount differs from their order's, and events about other objects", async () => {
    const order = await placeOrder(alice);
    const cheaper = standIn.addIntent({
      amount: 100,
      currency: "usd",
      metadata: { orderId: order.id },
      status: "succeeded",
    });
    const foreign = standIn.addIntent({
      amount: 100,
      currency: "usd",
      metadata: { orderId: "not-a-gearhouse-order" },
      status: "succeeded",
    });
    for (const id of [cheaper.id, foreign.id]) {
      expect((await webhook(standIn.eventPayload("payment_intent.succeeded", id))).statusCode).toBe(200);
    }
    const customer = JSON.stringify({
      id: "evt_customer",
      object: "event",
      type: "customer.created",
      data: { object: { id: "cus_1", object: "customer" } },
    });
    expect((await webhook(customer)).statusCode).toBe(200);
    expect(await orderRow(order.id)).toMatchObject({ status: "pending", transactionId: null });
    expect(await paymentsOf(order.id)).toHaveLength(0);
  });

  it("answers 404 when no webhook secret is configured", async () => {
    const unsigned = await createTestApp(stripeEnv({ STRIPE_WEBHOOK_SECRET: "" }), RATE_LIMIT);
    try {
      const payload = JSON.stringify({ id: "evt_x", object: "event", type: "payment_intent.succeeded" });
      const res = await unsigned.app.inject({
        method: "POST",
        url: "/api/payments/webhook",
        headers: { "content-type": "application/json", "stripe-signature": sign(payload) },
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
