import { eq } from "drizzle-orm";
import Stripe from "stripe";
import { expect } from "vitest";
import type { Order } from "../../shared/orders.js";
import type { PaymentIntent } from "../../shared/payments.js";
import { orders, payments } from "../db/schema/index.js";
import { madeInBeforeAll, type TestContext } from "./app.js";
import { insertProduct } from "./products.js";
import { type StripeStandIn, startStripeStandIn } from "./stripe-stand-in.js";
import { fromShop, type TestUser } from "./users.js";

/** What the payment tests use of a test app (`createTestApp` or `setUpTestApp`). */
export type Shop = Pick<TestContext, "app" | "database">;

/** The Stripe stand-in, started in a `beforeAll` and closed in an `afterAll` (`madeInBeforeAll`). */
export type StandIn = Omit<StripeStandIn, "close">;
export function setUpStripeStandIn(): StandIn {
  return madeInBeforeAll(
    "The Stripe stand-in",
    [
      "url",
      "secretKey",
      "intents",
      "refunds",
      "requests",
      "addIntent",
      "succeed",
      "fail",
      "refundAtDashboard",
      "eventPayload",
      "refundEventPayload",
    ],
    () => startStripeStandIn(),
    (standIn) => standIn.close(),
  );
}

export const STRIPE_PUBLISHABLE_KEY = "pk_test_gearhouse";
export const STRIPE_WEBHOOK_SECRET = "whsec_gearhouse_test_secret";

/** The settings of a shop that takes payments through the stand-in; `overrides` on top. */
export function stripeEnv(
  standIn: Pick<StandIn, "secretKey" | "url">,
  overrides: Record<string, string> = {},
) {
  return {
    STRIPE_SECRET_KEY: standIn.secretKey,
    STRIPE_PUBLISHABLE_KEY,
    STRIPE_WEBHOOK_SECRET,
    STRIPE_API_URL: standIn.url,
    ...overrides,
  };
}

/** A POST from the shop's own origin, as `user` or as a visitor (null). */
export function post(shop: Shop, user: TestUser | null, url: string, payload?: unknown) {
  return fromShop(shop.app, "POST", url, user?.cookie, payload);
}

/** An order of ten units of a new product at `price` dollars, placed by `user`. */
export async function placeOrder(shop: Shop, user: TestUser, price = 37): Promise<Order> {
  const productId = await insertProduct(shop.database.db, {
    name: `Payment test keyboard ${Math.random()}`,
    image: "/media/products/x.svg",
    price,
    category: "keyboards",
  });
  return bookOrder(shop, user, productId);
}

/** `user` asks to book `quantity` units of `productId`, to the test address; the shop's answer as it is. */
export function askToBook(shop: Shop, user: TestUser, productId: string, quantity = 10) {
  return post(shop, user, "/api/orders", {
    productId,
    quantity,
    address: "1 Loop Road, Austin",
    phone: "5550123",
  });
}

/** Ten units of `productId`, booked by `user` (a 201, or the test fails). */
export async function bookOrder(shop: Shop, user: TestUser, productId: string): Promise<Order> {
  const res = await askToBook(shop, user, productId);
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

/** The shop's answer to the payment page: the order's intent. */
export async function intentFor(shop: Shop, user: TestUser, orderId: string): Promise<PaymentIntent> {
  const res = await post(shop, user, `/api/orders/${orderId}/payment-intent`);
  expect(res.statusCode).toBe(200);
  return res.json();
}

/** A card the sandbox provider accepts. */
export const SANDBOX_CARD = {
  number: "4242 4242 4242 4242",
  expMonth: 12,
  expYear: new Date().getUTCFullYear() + 3,
  cvc: "123",
};

/** The customer's card is accepted by the sandbox; the intent's id (not yet reported with /pay). */
export async function confirmWithCard(shop: Shop, user: TestUser, orderId: string): Promise<string> {
  const intent = await intentFor(shop, user, orderId);
  const res = await post(shop, user, "/api/payments/sandbox/confirm", {
    clientSecret: intent.clientSecret,
    card: SANDBOX_CARD,
    billing: { name: "Alice", email: user.email },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().paymentIntent.id;
}

/**
 * An order of ten units at `price` dollars placed by `user` and paid with the sandbox card, as My
 * Orders' Pay does it: the order as /pay answered it.
 */
export async function paidOrder(shop: Shop, user: TestUser, price = 37): Promise<Order> {
  const order = await placeOrder(shop, user, price);
  const transactionId = await confirmWithCard(shop, user, order.id);
  const res = await post(shop, user, `/api/orders/${order.id}/pay`, { transactionId });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

/** The intent the shop answered, as the stand-in holds it. */
export function standInIntent(standIn: Pick<StandIn, "intents">, answer: PaymentIntent) {
  const intent = [...standIn.intents.values()].find((i) => i.client_secret === answer.clientSecret);
  if (!intent) throw new Error("the shop answered a client secret the stand-in never made");
  return intent;
}

/** An intent of `amount` cents for the order that has succeeded, made at Stripe beside the shop. */
export function succeededIntent(standIn: Pick<StandIn, "addIntent">, orderId: string, amount: number) {
  return standIn.addIntent({ amount, currency: "usd", metadata: { orderId }, status: "succeeded" });
}

/** Posts a webhook event signed with the shop's secret, another signature, or none (null). */
export function webhook(shop: Shop, payload: string, signature: string | null = signEvent(payload)) {
  return shop.app.inject({
    method: "POST",
    url: "/api/payments/webhook",
    headers: {
      "content-type": "application/json",
      ...(signature === null ? {} : { "stripe-signature": signature }),
    },
    payload,
  });
}

export function signEvent(payload: string, secret = STRIPE_WEBHOOK_SECRET): string {
  return Stripe.webhooks.generateTestHeaderString({ payload, secret });
}

export const paymentsOf = (shop: Shop, orderId: string) =>
  shop.database.db.select().from(payments).where(eq(payments.orderId, orderId));
export const orderRow = async (shop: Shop, orderId: string) =>
  (await shop.database.db.select().from(orders).where(eq(orders.id, orderId)))[0];
