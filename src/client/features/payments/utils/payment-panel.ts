import { orderMessages } from "../../../../shared/messages/orders.js";
import type { Order } from "../../../../shared/orders.js";
import type { PaymentIntent } from "../../../../shared/payments.js";
import { ApiError } from "../../../lib/api.js";
import { problemMessage } from "../../../lib/form-errors.js";

/**
 * The shop's refusal of a payment as the customer should read it, or undefined for any other
 * failure: a 409 says the order cannot be paid in its state now (it expired, was removed or paid
 * meanwhile), which a reload of the order shows.
 */
export function refusalOf(failure: unknown): string | undefined {
  return failure instanceof ApiError && failure.status === 409 ? problemMessage(failure) : undefined;
}

export type PaymentPanelInput = {
  order: Pick<Order, "status" | "paid" | "transactionId">;
  /** Unpaid, and its hold not run out on this clock. */
  payable: boolean;
  /** The transaction id of a payment made on this page just now. */
  paidNow: string | undefined;
  /** The shop's refusal of a payment tried on this page, kept once the form is gone. */
  refused: string | undefined;
  /** The order's payment intent: asked for only while the order is payable. */
  intent: { isPending: boolean; error: unknown; data: PaymentIntent | undefined };
};

/** What the payment page's card panel shows. */
export type PaymentPanel =
  | { kind: "paidNow"; transactionId: string }
  /** The order cannot be paid any more: why (`state`), after the refusal that told so, if any. */
  | { kind: "closed"; state: string; refusal: string | undefined }
  | { kind: "paidAlready"; transactionId: string | null }
  | { kind: "intentFailed"; message: string }
  | { kind: "preparing" }
  | { kind: "stripe"; publishableKey: string }
  | { kind: "sandbox" };

/**
 * The panel for an order as it stands (docs/product.md, Pages: Payment), first match wins: a payment
 * just made; an order that can no longer be paid; one paid before; the intent failed, or is on its
 * way; then the provider's card form.
 */
export function paymentPanel({ order, payable, paidNow, refused, intent }: PaymentPanelInput): PaymentPanel {
  if (paidNow) return { kind: "paidNow", transactionId: paidNow };
  const pending = order.status === "pending";
  if (order.status === "expired" || order.status === "refunded" || (pending && !payable)) {
    const state =
      order.status === "refunded"
        ? orderMessages.lifecycle.refunded
        : order.status === "expired"
          ? orderMessages.lifecycle.expired
          : orderMessages.dates.holdEnded;
    // An expired or refunded order's state says why it cannot be paid; a refusal is news only while
    // the order still shows as unpaid (its hold ended on this clock, the shop said no first).
    const refusal = pending ? (refused ?? refusalOf(intent.error)) : undefined;
    return { kind: "closed", state, refusal };
  }
  if (order.paid) return { kind: "paidAlready", transactionId: order.transactionId };
  if (intent.error) return { kind: "intentFailed", message: problemMessage(intent.error) };
  if (intent.isPending || !intent.data) return { kind: "preparing" };
  if (intent.data.provider === "stripe" && intent.data.publishableKey)
    return { kind: "stripe", publishableKey: intent.data.publishableKey };
  return { kind: "sandbox" };
}
