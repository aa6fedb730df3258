import { describe, expect, it } from "vitest";
import { commonMessages } from "../../../../shared/messages/common.js";
import { orderMessages } from "../../../../shared/messages/orders.js";
import { paymentMessages } from "../../../../shared/messages/payments.js";
import type { PaymentIntent } from "../../../../shared/payments.js";
import { ApiError } from "../../../lib/api.js";
import { type PaymentPanelInput, paymentPanel, refusalOf } from "./payment-panel.js";

const SANDBOX: PaymentIntent = {
  provider: "sandbox",
  clientSecret: "secret",
  amount: 1000,
  currency: "usd",
  publishableKey: null,
};
const STRIPE: PaymentIntent = { ...SANDBOX, provider: "stripe", publishableKey: "pk_test_1" };

const conflict = (detail: string) => new ApiError(409, "Conflict", { detail });

/** An unpaid order in its hold, its sandbox intent ready: the card form. */
function input(change: Partial<PaymentPanelInput> = {}): PaymentPanelInput {
  return {
    order: { status: "pending", paid: false, transactionId: null },
    payable: true,
    paidNow: undefined,
    refused: undefined,
    intent: { isPending: false, error: null, data: SANDBOX },
    ...change,
  };
}

describe("paymentPanel", () => {
  it("shows the sandbox's card form for a payable order", () => {
    expect(paymentPanel(input())).toEqual({ kind: "sandbox" });
  });

  it("shows Stripe's card form with its publishable key", () => {
    expect(paymentPanel(input({ intent: { isPending: false, error: null, data: STRIPE } }))).toEqual({
      kind: "stripe",
      publishableKey: "pk_test_1",
    });
  });

  it("falls back to the sandbox's form for Stripe without a key", () => {
    const keyless = { ...STRIPE, publishableKey: null };
    expect(paymentPanel(input({ intent: { isPending: false, error: null, data: keyless } })).kind).toBe(
      "sandbox",
    );
  });

  it("waits for the intent", () => {
    expect(paymentPanel(input({ intent: { isPending: true, error: null, data: undefined } }))).toEqual({
      kind: "preparing",
    });
  });

  it("says why the intent failed, with the reference of a failure of the shop's", () => {
    const error = new ApiError(502, "Bad Gateway", { detail: "The provider failed.", requestId: "req-1" });
    expect(paymentPanel(input({ intent: { isPending: false, error, data: undefined } }))).toEqual({
      kind: "intentFailed",
      message: `The provider failed. ${commonMessages.reference("req-1")}`,
    });
  });

  it("shows a payment just made, whatever the order says", () => {
    const order = { status: "paid", paid: true, transactionId: "pi_1" } as const;
    expect(paymentPanel(input({ paidNow: "pi_1", order, payable: false }))).toEqual({
      kind: "paidNow",
      transactionId: "pi_1",
    });
  });

  it("says an order paid before is paid, with its transaction", () => {
    for (const status of ["paid", "shipped"] as const) {
      const order = { status, paid: true, transactionId: "pi_2" };
      expect(paymentPanel(input({ order, payable: false }))).toEqual({
        kind: "paidAlready",
        transactionId: "pi_2",
      });
    }
  });

  it("says an expired or refunded order cannot be paid, without repeating a refusal", () => {
    const refused = orderMessages.lifecycle.expired;
    const expired = { status: "expired", paid: false, transactionId: null } as const;
    expect(paymentPanel(input({ order: expired, payable: false, refused }))).toEqual({
      kind: "closed",
      state: orderMessages.lifecycle.expired,
      refusal: undefined,
    });
    const refunded = { status: "refunded", paid: true, transactionId: "pi_3" } as const;
    expect(paymentPanel(input({ order: refunded, payable: false }))).toEqual({
      kind: "closed",
      state: orderMessages.lifecycle.refunded,
      refusal: undefined,
    });
  });

  it("says the hold ended on this clock, with the shop's refusal of a payment or of the intent", () => {
    const ended = input({ payable: false, intent: { isPending: true, error: null, data: undefined } });
    expect(paymentPanel(ended)).toEqual({
      kind: "closed",
      state: orderMessages.dates.holdEnded,
      refusal: undefined,
    });
    expect(paymentPanel({ ...ended, refused: paymentMessages.intentCanceled })).toEqual({
      kind: "closed",
      state: orderMessages.dates.holdEnded,
      refusal: paymentMessages.intentCanceled,
    });
    const error = conflict(orderMessages.lifecycle.expired);
    expect(paymentPanel({ ...ended, intent: { isPending: false, error, data: undefined } })).toEqual({
      kind: "closed",
      state: orderMessages.dates.holdEnded,
      refusal: orderMessages.lifecycle.expired,
    });
  });
});

describe("refusalOf", () => {
  it("is the words of a 409 only", () => {
    expect(refusalOf(conflict(paymentMessages.alreadyPaid))).toBe(paymentMessages.alreadyPaid);
    expect(refusalOf(new ApiError(402, "Payment Required", { detail: "Declined." }))).toBeUndefined();
    expect(refusalOf(new Error("offline"))).toBeUndefined();
    expect(refusalOf(null)).toBeUndefined();
  });
});
