import { describe, expect, it } from "vitest";
import { orderMessages } from "../../shared/messages/orders.js";
import { paymentMessages } from "../../shared/messages/payments.js";
import type { Order } from "../../shared/orders.js";
import type { PaymentIntent } from "../../shared/payments.js";
import type { TestApp } from "./app.js";
import { intentFor, orderRow, paymentsOf, placeOrder, post } from "./payments.js";
import { fromShop, type TestUser } from "./users.js";

/** The card every provider's `succeed` pays with, so the shop must read it from the provider. */
export const CONTRACT_CARD = { brand: "mastercard", last4: "4444" } as const;

/** How the contract plays the customer's and the provider's part with one provider. */
export interface ProviderDriver {
  name: "sandbox" | "stripe";
  /** What the payment page is given to load the provider's script with. */
  publishableKey: string | null;
  /** The intents the provider holds for the order. */
  intentsOf(
    orderId: string,
  ): Promise<{ id: string; clientSecret: string; amount: number; currency: string; status: string }[]>;
  /** The provider's id of the intent the shop answered. */
  intentId(answer: PaymentIntent): Promise<string>;
  /** The customer pays the intent with CONTRACT_CARD; its id. */
  succeed(user: TestUser, answer: PaymentIntent): Promise<string>;
  /** The customer's card is refused; the intent stays open. */
  decline(user: TestUser, answer: PaymentIntent): Promise<void>;
  /** A second intent of the order that also succeeded, as two tabs racing can make; its id. */
  addSucceededIntent(order: Order): Promise<string>;
}

/**
 * What paying an order means whatever the provider: the amount comes from the order, one open intent
 * per order, only the owner pays, an order is paid once and only for an intent of its own that
 * succeeded. Run by payments/sandbox.test.ts and payments/stripe.test.ts on their own shops.
 */
export function describePaymentContract(ctx: TestApp, driver: ProviderDriver) {
  describe(`paying an order through the ${driver.name} provider`, () => {
    const alice = ctx.signedUpUser({ name: "Alice Buyer" });
    const bob = ctx.signedUpUser({ name: "Bob Buyer" });
    const admin = ctx.signedUpAdmin();
    const pay = (user: TestUser, orderId: string, transactionId: unknown) =>
      post(ctx, user, `/api/orders/${orderId}/pay`, { transactionId });
    const paidOrder = async () => {
      const order = await placeOrder(ctx, alice);
      const transactionId = await driver.succeed(alice, await intentFor(ctx, alice, order.id));
      expect((await pay(alice, order.id, transactionId)).statusCode).toBe(200);
      return { order, transactionId };
    };

    it("asks for the order's total in cents, whatever amount the client sends", async () => {
      const order = await placeOrder(ctx, alice, 37);
      const res = await post(ctx, alice, `/api/orders/${order.id}/payment-intent`, {
        amount: 1,
        currency: "eur",
      });
      expect(res.statusCode).toBe(200);
      const answer: PaymentIntent = res.json();
      expect(answer).toEqual({
        provider: driver.name,
        clientSecret: expect.stringMatching(/^pi_\w+_secret_\w+$/),
        amount: 37_000,
        currency: "usd",
        publishableKey: driver.publishableKey,
      });
      expect(await driver.intentsOf(order.id)).toMatchObject([
        {
          clientSecret: answer.clientSecret,
          amount: 37_000,
          currency: "usd",
          status: "requires_payment_method",
        },
      ]);
    });

    it("hands back the order's open intent instead of making one per visit, also to two tabs at once", async () => {
      const order = await placeOrder(ctx, alice);
      const answers = await Promise.all(
        Array.from({ length: 5 }, () => post(ctx, alice, `/api/orders/${order.id}/payment-intent`)),
      );
      const again = await intentFor(ctx, alice, order.id);
      expect(new Set([...answers.map((r) => r.json().clientSecret), again.clientSecret]).size).toBe(1);
      expect(await driver.intentsOf(order.id)).toHaveLength(1);
    });

    it("answers 404 for another customer's order (admins included) and 401 to a visitor", async () => {
      const order = await placeOrder(ctx, alice);
      for (const user of [bob, admin]) {
        const res = await post(ctx, user, `/api/orders/${order.id}/payment-intent`);
        expect(res.statusCode).toBe(404);
        expect(res.json().detail).toBe(orderMessages.notFound);
      }
      expect((await post(ctx, null, `/api/orders/${order.id}/payment-intent`)).statusCode).toBe(401);
      expect(await driver.intentsOf(order.id)).toHaveLength(0);
    });

    it("records a payment the customer never reported, instead of charging again", async () => {
      const order = await placeOrder(ctx, alice);
      const transactionId = await driver.succeed(alice, await intentFor(ctx, alice, order.id));
      // The tab closed before /pay (and no webhook came); the customer opens the payment page again.
      const res = await post(ctx, alice, `/api/orders/${order.id}/payment-intent`);
      expect(res.statusCode).toBe(409);
      expect(res.json().detail).toBe(paymentMessages.alreadyPaid);
      expect(await orderRow(ctx, order.id)).toMatchObject({ status: "paid", transactionId });
      expect(await paymentsOf(ctx, order.id)).toHaveLength(1);
      const late = await pay(alice, order.id, transactionId);
      expect(late.statusCode).toBe(200);
      expect(late.json()).toMatchObject({ paid: true, transactionId });
    });

    it("refuses an intent of another order, or an unknown one, with 400", async () => {
      const order = await placeOrder(ctx, alice);
      const other = await placeOrder(ctx, alice);
      const otherIntent = await driver.succeed(alice, await intentFor(ctx, alice, other.id));
      for (const id of [otherIntent, "pi_unknown", "not an intent", "../v1/charges"]) {
        const res = await pay(alice, order.id, id);
        expect(res.statusCode).toBe(400);
        expect(res.json().detail).toBe(paymentMessages.intentMismatch);
      }
      expect(await orderRow(ctx, order.id)).toMatchObject({ status: "pending", transactionId: null });
      expect(await paymentsOf(ctx, order.id)).toHaveLength(0);
    });

    it("refuses an intent that has not succeeded with 402, and pays once it has, recording the card", async () => {
      const order = await placeOrder(ctx, alice);
      const answer = await intentFor(ctx, alice, order.id);
      const intentId = await driver.intentId(answer);
      const early = await pay(alice, order.id, intentId);
      expect(early.statusCode).toBe(402);
      expect(early.json().detail).toBe(paymentMessages.notCompleted);
      await driver.decline(alice, answer);
      const declined = await pay(alice, order.id, intentId);
      expect(declined.statusCode).toBe(402);
      expect(declined.json().detail).toBe(paymentMessages.notCompleted);
      expect(await orderRow(ctx, order.id)).toMatchObject({ status: "pending", transactionId: null });

      expect(await driver.succeed(alice, answer)).toBe(intentId);
      const paid = await pay(alice, order.id, intentId);
      expect(paid.statusCode).toBe(200);
      expect(paid.json()).toMatchObject({ paid: true, status: "paid", transactionId: intentId });
      expect(await paymentsOf(ctx, order.id)).toMatchObject([
        {
          provider: driver.name,
          intentId,
          amount: order.totalPrice * 100,
          currency: "usd",
          cardBrand: CONTRACT_CARD.brand,
          cardLast4: CONTRACT_CARD.last4,
        },
      ]);
      expect((await post(ctx, alice, `/api/orders/${order.id}/payment-intent`)).statusCode).toBe(409);
    });

    it("answers 404 for another customer's order, even with its own intent", async () => {
      const { order, transactionId } = await paidOrder();
      const unpaid = await placeOrder(ctx, alice);
      const unpaidIntent = await driver.succeed(alice, await intentFor(ctx, alice, unpaid.id));
      for (const [id, tx] of [
        [order.id, transactionId],
        [unpaid.id, unpaidIntent],
        [unpaid.id, transactionId],
      ] as const) {
        expect((await pay(bob, id, tx)).statusCode).toBe(404);
      }
      expect(await orderRow(ctx, unpaid.id)).toMatchObject({ status: "pending" });
    });

    it("pays once when asked twice in a row and ten times at once", async () => {
      const { order, transactionId } = await paidOrder();
      const again = await pay(alice, order.id, transactionId);
      expect(again.statusCode).toBe(200);
      expect(again.json()).toMatchObject({ paid: true, transactionId });

      const racing = await placeOrder(ctx, alice);
      const racingId = await driver.succeed(alice, await intentFor(ctx, alice, racing.id));
      const answers = await Promise.all(Array.from({ length: 10 }, () => pay(alice, racing.id, racingId)));
      expect(answers.map((r) => r.statusCode)).toEqual(Array(10).fill(200));
      expect(new Set(answers.map((r) => r.json().transactionId))).toEqual(new Set([racingId]));
      for (const [id, tx] of [
        [order.id, transactionId],
        [racing.id, racingId],
      ] as const) {
        expect(await orderRow(ctx, id)).toMatchObject({ status: "paid", transactionId: tx });
        expect(await paymentsOf(ctx, id)).toMatchObject([{ intentId: tx }]);
      }
    });

    it("refuses a second intent for a paid order with 409, and the paid order stays", async () => {
      const { order, transactionId } = await paidOrder();
      const second = await driver.addSucceededIntent(order);
      const res = await pay(alice, order.id, second);
      expect(res.statusCode).toBe(409);
      expect(res.json().detail).toBe(paymentMessages.alreadyPaid);
      const intent = await post(ctx, alice, `/api/orders/${order.id}/payment-intent`);
      expect(intent.statusCode).toBe(409);
      expect(intent.json().detail).toBe(paymentMessages.alreadyPaid);
      const remove = await fromShop(ctx.app, "DELETE", `/api/orders/${order.id}`, alice.cookie);
      expect(remove.statusCode).toBe(409);
      expect(await orderRow(ctx, order.id)).toMatchObject({ status: "paid", transactionId });
      expect(await paymentsOf(ctx, order.id)).toMatchObject([{ intentId: transactionId }]);
    });
  });
}
