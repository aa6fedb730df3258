import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { paymentMessages } from "../../../shared/messages/payments.js";
import { sandboxIntents } from "../../db/schema/index.js";
import { createTestApp, setUpTestApp } from "../../test/app.js";
import { describePaymentContract } from "../../test/payment-contract.js";
import { intentFor, orderRow, paymentsOf, placeOrder, post, type Shop } from "../../test/payments.js";
import { signUp, type TestUser } from "../../test/users.js";

const RATE_LIMIT = { rateLimit: { max: 10_000, windowSeconds: 60 } };
const THIS_YEAR = new Date().getUTCFullYear();
const GOOD_CARD = { number: "4242 4242 4242 4242", expMonth: 12, expYear: THIS_YEAR + 3, cvc: "123" };
const DECLINED_CARD = { number: "4000 0000 0000 0002" };
/** A Mastercard ending 4444: the contract's card (test/payment-contract.ts, CONTRACT_CARD). */
const CONTRACT_CARD_NUMBER = "5555 5555 5555 4444";
const BILLING = { name: "Alice Buyer", email: "alice@example.com" };

const ctx = setUpTestApp({}, RATE_LIMIT);
const alice = ctx.signedUpUser({ name: "Alice Buyer" });
const bob = ctx.signedUpUser({ name: "Bob Buyer" });

function confirm(shop: Shop, user: TestUser, clientSecret: string, card: Partial<typeof GOOD_CARD>) {
  return post(shop, user, "/api/payments/sandbox/confirm", {
    clientSecret,
    card: { ...GOOD_CARD, ...card },
    billing: BILLING,
  });
}

const intentRow = async (clientSecret: string) => {
  const [intent] = await ctx.database.db
    .select()
    .from(sandboxIntents)
    .where(eq(sandboxIntents.clientSecret, clientSecret));
  if (!intent) throw new Error("the shop answered a client secret the sandbox never made");
  return intent;
};

describePaymentContract(ctx, {
  name: "sandbox",
  publishableKey: null,
  intentsOf: (orderId) =>
    ctx.database.db.select().from(sandboxIntents).where(eq(sandboxIntents.orderId, orderId)),
  intentId: async (answer) => (await intentRow(answer.clientSecret)).id,
  async succeed(user, answer) {
    const res = await confirm(ctx, user, answer.clientSecret, { number: CONTRACT_CARD_NUMBER });
    expect(res.statusCode).toBe(200);
    return res.json().paymentIntent.id;
  },
  async decline(user, answer) {
    const res = await confirm(ctx, user, answer.clientSecret, DECLINED_CARD);
    expect(res.statusCode).toBe(402);
  },
  async addSucceededIntent(order) {
    const [second] = await ctx.database.db
      .insert(sandboxIntents)
      .values({
        id: `pi_sandbox_second_tab_${order.id.slice(0, 8)}`,
        clientSecret: `pi_sandbox_second_tab_${order.id.slice(0, 8)}_secret_x`,
        orderId: order.id,
        amount: order.totalPrice * 100,
        currency: "usd",
        status: "succeeded",
        cardBrand: "visa",
        cardLast4: "4242",
      })
      .returning();
    if (!second) throw new Error("the second intent was not stored");
    return second.id;
  },
});

describe("POST /api/payments/sandbox/confirm", () => {
  it.each([
    ["4242 4242 4242 4242", "123", "visa", "4242"],
    ["5555 5555 5555 4444", "123", "mastercard", "4444"],
    ["3782 822463 10005", "1234", "amex", "0005"],
    ["6011111111111117", "123", "discover", "1117"],
  ])(
    "accepts Stripe's test card %s (CVC %s), keeping only the brand %s and last four %s",
    async (number, cvc, brand, last4) => {
      const order = await placeOrder(ctx, alice, 37);
      const { clientSecret } = await intentFor(ctx, alice, order.id);
      const res = await confirm(ctx, alice, clientSecret, { number, cvc });
      expect(res.statusCode).toBe(200);
      const { paymentIntent } = res.json();
      expect(paymentIntent).toEqual({ id: expect.stringMatching(/^pi_/), status: "succeeded" });
      const paid = await post(ctx, alice, `/api/orders/${order.id}/pay`, { transactionId: paymentIntent.id });
      expect(paid.statusCode).toBe(200);
      expect(paid.json()).toMatchObject({ paid: true, status: "paid", transactionId: paymentIntent.id });
      expect(await paymentsOf(ctx, order.id)).toMatchObject([
        {
          provider: "sandbox",
          intentId: paymentIntent.id,
          amount: 37_000,
          currency: "usd",
          cardBrand: brand,
          cardLast4: last4,
        },
      ]);
    },
  );

  it("refuses each bad card with the provider's message as 402, leaving the intent open", async () => {
    const order = await placeOrder(ctx, alice);
    const { clientSecret } = await intentFor(ctx, alice, order.id);
    const refusals: [Partial<typeof GOOD_CARD>, string][] = [
      [{ number: "4000 0000 0000 0002" }, paymentMessages.cardDeclined],
      [{ number: "4000 0000 0000 9995" }, paymentMessages.insufficientFunds],
      [{ number: "4111 1111 1111 1111" }, paymentMessages.cardDeclined],
      [{ number: "4242 4242 4242 4241" }, paymentMessages.incorrectNumber],
      [{ number: "4242-4242-4242-4242" }, paymentMessages.incorrectNumber],
      [{ number: "4242 4242 4242" }, paymentMessages.incorrectNumber],
      [{ number: "4242 4242 4242 4242 4" }, paymentMessages.incorrectNumber],
      [{ number: "abcd efgh ijkl mnop" }, paymentMessages.incorrectNumber],
      [{ number: "" }, paymentMessages.incorrectNumber],
      [{ expMonth: 13 }, paymentMessages.invalidExpiry],
      [{ expMonth: 0 }, paymentMessages.invalidExpiry],
      [{ expYear: THIS_YEAR + 80 }, paymentMessages.invalidExpiry],
      [{ expMonth: 12, expYear: THIS_YEAR - 1 }, paymentMessages.expiredCard],
      [{ expMonth: 12, expYear: (THIS_YEAR - 1) % 100 }, paymentMessages.expiredCard],
      [{ cvc: "12" }, paymentMessages.incompleteCvc],
      [{ cvc: "12a" }, paymentMessages.incompleteCvc],
      [{ cvc: "1234" }, paymentMessages.incompleteCvc],
      [{ number: "3782 822463 10005", cvc: "123" }, paymentMessages.incompleteCvc],
    ];
    for (const [card, message] of refusals) {
      const res = await confirm(ctx, alice, clientSecret, card);
      expect({ card, status: res.statusCode }).toEqual({ card, status: 402 });
      expect(res.headers["content-type"]).toMatch(/^application\/problem\+json/);
      expect(res.json()).toMatchObject({ status: 402, title: "Payment Required", detail: message });
    }
    const intent = await intentRow(clientSecret);
    expect(intent).toMatchObject({
      status: "requires_payment_method",
      lastError: paymentMessages.incompleteCvc,
      cardBrand: null,
      cardLast4: null,
    });
    expect(await orderRow(ctx, order.id)).toMatchObject({ status: "pending", transactionId: null });

    // The same intent still takes a good card afterwards, with two-digit years as cards print them.
    const good = await confirm(ctx, alice, clientSecret, { expYear: (THIS_YEAR + 2) % 100 });
    expect(good.statusCode).toBe(200);
    expect(good.json().paymentIntent.status).toBe("succeeded");
  });

  it("answers an intent that already succeeded again, whatever card comes next", async () => {
    const order = await placeOrder(ctx, alice);
    const { clientSecret } = await intentFor(ctx, alice, order.id);
    const first = await confirm(ctx, alice, clientSecret, {});
    const again = await Promise.all([
      confirm(ctx, alice, clientSecret, {}),
      confirm(ctx, alice, clientSecret, DECLINED_CARD),
    ]);
    for (const res of again) {
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual(first.json());
    }
  });

  it("answers 404 for another customer's intent or an unknown one, and 400 for a malformed body", async () => {
    const order = await placeOrder(ctx, alice);
    const { clientSecret } = await intentFor(ctx, alice, order.id);
    const stolen = await confirm(ctx, bob, clientSecret, {});
    expect(stolen.statusCode).toBe(404);
    expect(stolen.json().detail).toBe(paymentMessages.unknownIntent);
    const unknown = await confirm(ctx, alice, "pi_nothing_secret_nothing", {});
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().detail).toBe(paymentMessages.unknownIntent);
    expect((await confirm(ctx, alice, clientSecret, { expMonth: 1.5 })).statusCode).toBe(400);
    expect((await post(ctx, alice, "/api/payments/sandbox/confirm", { clientSecret })).statusCode).toBe(400);
    const visitor = await post(ctx, null, "/api/payments/sandbox/confirm", {
      clientSecret,
      card: GOOD_CARD,
      billing: BILLING,
    });
    expect(visitor.statusCode).toBe(401);
    const intent = await intentRow(clientSecret);
    expect(intent.status).toBe("requires_payment_method");
  });
});

describe("the sandbox shop", () => {
  it("answers 404 to the webhook, which only Stripe calls", async () => {
    const res = await ctx.app.inject({
      method: "POST",
      url: "/api/payments/webhook",
      headers: { "content-type": "application/json", "stripe-signature": "t=1,v1=abc" },
      payload: JSON.stringify({ id: "evt_1", type: "payment_intent.succeeded" }),
    });
    expect(res.statusCode).toBe(404);
    expect(res.headers["content-type"]).toMatch(/^application\/problem\+json/);
  });

  it("publishes the payment routes in the OpenAPI document", async () => {
    const res = await ctx.app.inject({ url: "/api/docs/json" });
    expect(Object.keys(res.json().paths)).toEqual(
      expect.arrayContaining([
        "/api/orders/{id}/payment-intent",
        "/api/orders/{id}/pay",
        "/api/payments/sandbox/confirm",
        "/api/payments/webhook",
      ]),
    );
  });

  it("keeps Stripe out of the content security policy", async () => {
    const res = await ctx.app.inject({ method: "GET", url: "/healthz" });
    const csp = String(res.headers["content-security-policy"]);
    expect(csp).toContain("frame-src 'none'");
    expect(csp).not.toContain("stripe");
  });
});

describe("card numbers", () => {
  it("never reach the database or the logs, whatever happens to the payment", async () => {
    const lines: string[] = [];
    const logged = await createTestApp(
      { LOG_LEVEL: "trace" },
      { ...RATE_LIMIT, logger: { level: "trace", stream: { write: (line: string) => lines.push(line) } } },
    );
    try {
      const carol = await signUp(logged.app, { name: "Carol Buyer" });
      const numbers = [
        "4242 4242 4242 4242",
        "4000 0000 0000 0002",
        "4000 0000 0000 9995",
        "5555 5555 5555 4444",
        "4242 4242 4242 4241",
      ];
      for (const number of numbers) {
        const order = await placeOrder(logged, carol);
        const { clientSecret } = await intentFor(logged, carol, order.id);
        const res = await confirm(logged, carol, clientSecret, { number });
        if (res.statusCode === 200) {
          const transactionId = res.json().paymentIntent.id;
          const paid = await post(logged, carol, `/api/orders/${order.id}/pay`, { transactionId });
          expect(paid.statusCode).toBe(200);
        }
        // Refused by the schema (too long), so the number is part of a validation error.
        const long = await confirm(logged, carol, clientSecret, { number: `${number} ${number} ${number}` });
        expect(long.statusCode).toBe(400);
      }

      const { rows: tables } = await logged.database.pool.query<{ name: string }>(
        "select table_name as name from information_schema.tables where table_schema = 'public'",
      );
      expect(tables.map((t) => t.name)).toEqual(expect.arrayContaining(["payment", "sandbox_intent"]));
      let dump = "";
      for (const { name } of tables) {
        const { rows } = await logged.database.pool.query<{ row: string }>(
          `select t::text as row from "${name}" t`,
        );
        dump += rows.map((r) => r.row).join("\n");
      }
      const log = lines.join("");
      expect(dump).toContain("4242");
      expect(log).toContain("/api/payments/sandbox/confirm");
      for (const number of numbers) {
        const digits = number.replaceAll(" ", "");
        for (const text of [dump, log]) {
          expect(text).not.toContain(digits);
          expect(text).not.toContain(number);
          // Nothing beyond the last four either.
          expect(text).not.toContain(digits.slice(0, 12));
        }
      }
    } finally {
      await logged.close();
    }
  });
});
