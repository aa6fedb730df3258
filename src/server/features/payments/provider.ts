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
}

/** A verified webhook event, reduced to what the shop acts on. */
export interface ProviderEvent {
  id: string;
  type: string;
  /** The payment intent a `payment_intent.*` event is about; null for other events. */
  intentId: string | null;
}

export interface PaymentProvider {
  readonly name: PaymentProviderName;
  /** Handed to the browser (Stripe.js); null when the browser needs none. */
  readonly publishableKey: string | null;
  createIntent(request: IntentRequest): Promise<CreatedIntent>;
  /** Null when the provider does not know the intent. */
  retrieve(intentId: string): Promise<ProviderIntent | null>;
  /** Throws a 404 problem when webhooks are not in use, a 400 problem when the signature is wrong. */
  verifyWebhook(rawBody: Buffer, signatureHeader: string | undefined): ProviderEvent;
}
