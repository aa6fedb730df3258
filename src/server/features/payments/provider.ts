import type { PaymentProviderName } from "../../../shared/payments.js";

/** What the shop asks a provider to charge: one order's amount, in cents. */
export interface IntentRequest {
  orderId: string;
  amount: number;
  currency: "usd";
}

export interface CreatedIntent {
  id: string;
  clientSecret: string;
  /** The sandbox may hand back an intent that was already paid but never reported to the shop. */
  status: string;
}

/** A payment intent as the provider knows it: the only source of truth for "was this paid". */
export interface ProviderIntent {
  id: string;
  /** From the intent's metadata; null when the intent was not made by this shop. */
  orderId: string | null;
  amount: number;
  currency: string;
  status: string;
  cardBrand: string | null;
  cardLast4: string | null;
  /** Whether its charge was refunded (at the provider's dashboard, say): such a success pays no order. */
  refunded: boolean;
}

/** Why the shop refunds (recorded with the refund; table `refund`). */
export type RefundReason = "admin" | "order_removed" | "order_expired" | "duplicate_charge";

/** What the shop asks a provider to refund: always an intent's whole amount, in cents. */
export interface RefundRequest {
  intentId: string;
  amount: number;
  /** Null when the order is gone (removed while the card was being charged). */
  orderId: string | null;
  reason: RefundReason;
}

/** A refund as the provider knows it. */
export interface ProviderRefund {
  id: string;
  intentId: string;
  amount: number;
  /** "succeeded", "pending" (on its way), "failed" or "canceled", as Stripe names them. */
  status: string;
}

/** A verified webhook event, reduced to what the shop acts on. */
export interface ProviderEvent {
  id: string;
  type: string;
  /** "payment" for `payment_intent.*`, "refund" for `charge.refunded` and `refund.*`, else "other". */
  kind: "payment" | "refund" | "other";
  /** The payment intent the event is about; null for other events. */
  intentId: string | null;
  /** A failed payment's decline code (or error code), for the payment failures metric. */
  failureReason?: string;
}

export interface PaymentProvider {
  readonly name: PaymentProviderName;
  /** Handed to the browser (Stripe.js); null when the browser needs none. */
  readonly publishableKey: string | null;
  createIntent(request: IntentRequest): Promise<CreatedIntent>;
  /** Null when the provider does not know the intent. */
  retrieve(intentId: string): Promise<ProviderIntent | null>;
  /**
   * Cancels an intent no order will take any more. An intent that already succeeded (too late to
   * cancel) or is already cancelled is answered as it is; null when the provider does not know it.
   */
  cancelIntent(intentId: string): Promise<ProviderIntent | null>;
  /**
   * Refunds a succeeded intent in full. Idempotent per intent: asking again answers the same refund.
   * Throws a 502 problem when the provider cannot be reached or refuses.
   */
  refund(request: RefundRequest): Promise<ProviderRefund>;
  /** The refunds of an intent, as the provider knows them (the truth behind a refund webhook). */
  refundsOf(intentId: string): Promise<ProviderRefund[]>;
  /** Throws a 404 problem when webhooks are not in use, a 400 problem when the signature is wrong. */
  verifyWebhook(rawBody: Buffer, signatureHeader: string | undefined): ProviderEvent;
}
