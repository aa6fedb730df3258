import { eq } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { paymentMessages } from "../../../shared/messages/payments.js";
import type { Order } from "../../../shared/orders.js";
import type { PaymentIntent } from "../../../shared/payments.js";
import { sandboxIntents } from "../../db/schema/index.js";
import { setUpTestApp } from "../app.js";
import {
  intentFor,
  orderRow,
  paymentsOf,
  placeOrder,
  post,
  setUpStripeStandIn,
  webhook as signedWebhook,
  standInIntent,
  stripeEnv,
  succeededIntent,
} from "../payments.js";
import { recordResults } from "./figures.js";

// Payments (README.md, Guarantees). Most of it is proven beside the payments code: /pay replayed
// and sent ten times at once, two tabs asking for an intent, with either provider
// (test/payment-contract.ts); duplicate webhooks, a webhook before /pay and racing it, failed
// events before and after the success (payments/stripe.test.ts). These tests fill the gaps: a
// success event arriving after /pay behind older events, two succeeded intents of one order racing,
// and the sandbox card form sent from two tabs at once.

const GOOD_CARD = {
  number: "4242424242424242",
  expMonth: 12,
  expYear: new Date().getUTCFullYear() + 3,
  cvc: "123",
};
const DECLINED_CARD = { ...GOOD_CARD, number: "4000000000000002" };
const RATE_LIMIT = { rateLimit: { max: 10_000, windowSeconds: 60 } };

const standIn = setUpStripeStandIn();
const stripeShop = setUpTestApp(() => stripeEnv(standIn), RATE_LIMIT);
const sandboxShop = setUpTestApp({}, RATE_LIMIT);
const stripeBuyer = stripeShop.signedUpUser({ name: "Stripe Buyer" });
const sandboxBuyer = sandboxShop.signedUpUser({ name: "Sandbox Buyer" });
const figures: Record<string, unknown> = {};
afterAll(() => {
  recordResults("10 payments (gaps beside payments/*.test.ts)", figures);
});

const stripeIntentFor = async (order: Order) =>
  standInIntent(standIn, await intentFor(stripeShop, stripeBuyer, order.id));
const webhook = (payload: string) => signedWebhook(stripeShop, payload);

describe("Stripe webhooks arriving late and out of order", () => {
  it("change nothing once /pay has paid the order: a late success, its duplicates, and older events behind it", async () => {
    const order = await placeOrder(stripeShop, stripeBuyer);
    const intent = await stripeIntentFor(order);
    standIn.fail(intent.id);
    const failedEarlier = standIn.eventPayload("payment_intent.payment_failed", intent.id);
    standIn.succeed(intent.id, { brand: "visa", last4: "4242" });
    const paid = await post(stripeShop, stripeBuyer, `/api/orders/${order.id}/pay`, {
      transactionId: intent.id,
    });
    expect(paid.statusCode).toBe(200);
    const paidRow = await orderRow(stripeShop, order.id);

    // Stripe delivers in no particular order: the success (three times at once), then the failure
    // of the first card and the creation, both older than the success.
    const succeeded = standIn.eventPayload("payment_intent.succeeded", intent.id);
    const late = await Promise.all([webhook(succeeded), webhook(succeeded), webhook(succeeded)]);
    const older = [
      await webhook(failedEarlier),
      await webhook(standIn.eventPayload("payment_intent.created", intent.id)),
    ];
    expect([...late, ...older].map((r) => r.statusCode)).toEqual(Array(5).fill(200));

    expect(await orderRow(stripeShop, order.id)).toEqual(paidRow);
    expect(await paymentsOf(stripeShop, order.id)).toMatchObject([
      { intentId: intent.id, cardLast4: "4242" },
    ]);
    figures.lateAndOutOfOrderWebhooks = {
      deliveries: late.length + older.length,
      paymentRecords: (await paymentsOf(stripeShop, order.id)).length,
      transactionIdKept: (await orderRow(stripeShop, order.id))?.transactionId === intent.id,
    };
  });

  it("end in one payment, for the winning intent, when two succeeded intents of one order race through /pay and webhooks", async () => {
    const order = await placeOrder(stripeShop, stripeBuyer);
    const first = await stripeIntentFor(order);
    standIn.succeed(first.id);
    // A second intent the customer also paid, as a second tab or a retried confirmation can make.
    const second = succeededIntent(standIn, order.id, order.totalPrice * 100);
    const pays = [first.id, second.id].flatMap((id) =>
      Array.from({ length: 3 }, () =>
        post(stripeShop, stripeBuyer, `/api/orders/${order.id}/pay`, { transactionId: id }).then((reply) => ({
          id,
          reply,
        })),
      ),
    );
    const hooks = [first.id, second.id, first.id, second.id].map((id) =>
      webhook(standIn.eventPayload("payment_intent.succeeded", id)),
    );
    const [payAnswers, hookAnswers] = await Promise.all([Promise.all(pays), Promise.all(hooks)]);

    const row = await orderRow(stripeShop, order.id);
    const recorded = await paymentsOf(stripeShop, order.id);
    expect(row?.status).toBe("paid");
    expect([first.id, second.id]).toContain(row?.transactionId);
    expect(recorded.map((p) => p.intentId)).toEqual([row?.transactionId]);
    for (const { id, reply } of payAnswers) {
      if (id === row?.transactionId) {
        expect(reply.statusCode).toBe(200);
        expect(reply.json()).toMatchObject({ paid: true, transactionId: id });
      } else {
        expect(reply.statusCode).toBe(409);
        expect(reply.json().detail).toBe(paymentMessages.alreadyPaid);
      }
    }
    expect(hookAnswers.map((r) => r.statusCode)).toEqual(Array(4).fill(200));
    figures.twoSucceededIntentsRacing = {
      payRequests: payAnswers.length,
      webhooks: hookAnswers.length,
      paymentRecords: recorded.length,
      transactionIdIsThePaymentsIntent: recorded[0]?.intentId === row?.transactionId,
    };
  });
});

describe("the sandbox card form sent from two tabs at once", () => {
  it("charges one intent once and pays the order once, whichever tab reports it", async () => {
    const order = await placeOrder(sandboxShop, sandboxBuyer);
    const intentReply = await post(sandboxShop, sandboxBuyer, `/api/orders/${order.id}/payment-intent`);
    const { clientSecret }: PaymentIntent = intentReply.json();
    const billing = { name: "Sandbox Buyer", email: sandboxBuyer.email };
    const confirm = (card: typeof GOOD_CARD) =>
      post(sandboxShop, sandboxBuyer, "/api/payments/sandbox/confirm", { clientSecret, card, billing });
    const confirmations = await Promise.all([
      confirm(GOOD_CARD),
      confirm(DECLINED_CARD),
      confirm(GOOD_CARD),
      confirm(DECLINED_CARD),
      confirm(GOOD_CARD),
    ]);
    const succeeded = confirmations.filter((r) => r.statusCode === 200);
    const ids = new Set(succeeded.map((r) => r.json().paymentIntent.id as string));
    expect(ids.size).toBe(1);
    // A declined card either lost the race (402) or met the success already recorded (200).
    expect(confirmations.every((r) => r.statusCode === 200 || r.statusCode === 402)).toBe(true);
    const [transactionId] = [...ids];

    const pays = await Promise.all(
      Array.from({ length: 6 }, () =>
        post(sandboxShop, sandboxBuyer, `/api/orders/${order.id}/pay`, {
          transactionId: transactionId ?? "",
        }),
      ),
    );
    expect(pays.map((r) => r.statusCode)).toEqual(Array(6).fill(200));
    expect(new Set(pays.map((r) => r.body)).size).toBe(1);

    const intents = await sandboxShop.database.db
      .select()
      .from(sandboxIntents)
      .where(eq(sandboxIntents.orderId, order.id));
    expect(intents).toMatchObject([{ id: transactionId, status: "succeeded", cardLast4: "4242" }]);
    expect(await orderRow(sandboxShop, order.id)).toMatchObject({ status: "paid", transactionId });
    expect(await paymentsOf(sandboxShop, order.id)).toMatchObject([{ intentId: transactionId }]);
    figures.sandboxTwoTabs = {
      confirmations: confirmations.length,
      payRequests: pays.length,
      intents: intents.length,
      paymentRecords: (await paymentsOf(sandboxShop, order.id)).length,
    };
  });
});
