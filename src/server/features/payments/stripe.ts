import Stripe from "stripe";
import { orderMessages } from "../../../shared/messages/orders.js";
import { paymentMessages } from "../../../shared/messages/payments.js";
import type { Config } from "../../config.js";
import { badGateway, badRequest, notFound } from "../../lib/problem.js";
import type {
  CreatedIntent,
  IntentRequest,
  PaymentProvider,
  ProviderEvent,
  ProviderIntent,
  ProviderRefund,
  RefundRequest,
} from "./provider.js";

type StripeSettings = NonNullable<Config["stripe"]>;

/** Ids Stripe gives payment intents; anything else is not worth a round trip. */
const INTENT_ID = /^pi_[A-Za-z0-9_]{1,200}$/;

function connection(apiUrl: string | undefined): Pick<Stripe.StripeConfig, "host" | "port" | "protocol"> {
  if (!apiUrl) return {};
  const url = new URL(apiUrl);
  const protocol = url.protocol === "http:" ? "http" : "https";
  return { host: url.hostname, port: url.port || (protocol === "http" ? 80 : 443), protocol };
}

/** Card payments through Stripe: the browser confirms with Stripe.js, the server only asks Stripe. */
export class StripeProvider implements PaymentProvider {
  readonly name = "stripe" as const;
  readonly publishableKey: string;
  private readonly stripe: Stripe;
  private readonly webhookSecret: string | undefined;

  constructor(settings: StripeSettings) {
    this.publishableKey = settings.publishableKey;
    this.webhookSecret = settings.webhookSecret;
    this.stripe = new Stripe(settings.secretKey, {
      ...connection(settings.apiUrl),
      telemetry: false,
      // A customer is waiting: three attempts still end before the server's 30 s request timeout.
      timeout: 8_000,
      maxNetworkRetries: 2,
    });
  }

  async createIntent(request: IntentRequest): Promise<CreatedIntent> {
    try {
      const intent = await this.stripe.paymentIntents.create(
        { amount: request.amount, currency: request.currency, metadata: { orderId: request.orderId } },
        // Retries, reloads and second tabs get the same intent instead of a new one (for 24 hours).
        { idempotencyKey: `gearhouse-order-${request.orderId}-${request.amount}-${request.currency}` },
      );
      if (!intent.client_secret) throw new Error("Stripe returned an intent without a client secret");
      // A replay carries the intent as it was first created; it may have been paid since.
      const replayed = intent.lastResponse.headers["idempotent-replayed"] === "true";
      const current = replayed ? await this.stripe.paymentIntents.retrieve(intent.id) : intent;
      return { id: intent.id, clientSecret: intent.client_secret, status: current.status };
    } catch (error) {
      throw badGateway(paymentMessages.providerUnavailable, error);
    }
  }

  async retrieve(intentId: string): Promise<ProviderIntent | null> {
    if (!INTENT_ID.test(intentId)) return null;
    let intent: Stripe.PaymentIntent;
    try {
      intent = await this.stripe.paymentIntents.retrieve(intentId, { expand: ["latest_charge"] });
    } catch (error) {
      if (error instanceof Stripe.errors.StripeError && error.code === "resource_missing") return null;
      throw badGateway(paymentMessages.providerUnavailable, error);
    }
    const charge = typeof intent.latest_charge === "object" ? intent.latest_charge : null;
    const card = charge?.payment_method_details?.card;
    return {
      id: intent.id,
      orderId: intent.metadata.orderId ?? null,
      amount: intent.amount,
      currency: intent.currency,
      status: intent.status,
      cardBrand: card?.brand ?? null,
      cardLast4: card?.last4 ?? null,
      refunded: (charge?.amount_refunded ?? 0) > 0,
    };
  }

  async cancelIntent(intentId: string): Promise<ProviderIntent | null> {
    if (!INTENT_ID.test(intentId)) return null;
    try {
      await this.stripe.paymentIntents.cancel(intentId);
    } catch (error) {
      // Already succeeded or cancelled: answered as it is by retrieve.
      const unexpectedState =
        error instanceof Stripe.errors.StripeError && error.code === "payment_intent_unexpected_state";
      if (!unexpectedState) {
        if (error instanceof Stripe.errors.StripeError && error.code === "resource_missing") return null;
        throw badGateway(paymentMessages.providerUnavailable, error);
      }
    }
    return this.retrieve(intentId);
  }

  async refund(request: RefundRequest): Promise<ProviderRefund> {
    try {
      const refund = await this.stripe.refunds.create(
        {
          payment_intent: request.intentId,
          metadata: { orderId: request.orderId ?? "", reason: request.reason },
        },
        // One refund per intent, however often the shop asks (for 24 hours; then Stripe refuses
        // a second refund of a refunded charge, answered below).
        { idempotencyKey: `gearhouse-refund-${request.intentId}` },
      );
      return toRefund(refund, request.intentId);
    } catch (error) {
      if (error instanceof Stripe.errors.StripeError && error.code === "charge_already_refunded") {
        const [existing] = (await this.refundsOf(request.intentId)).filter((r) => r.status !== "failed");
        if (existing) return existing;
      }
      throw badGateway(orderMessages.refund.failed, error);
    }
  }

  async refundsOf(intentId: string): Promise<ProviderRefund[]> {
    if (!INTENT_ID.test(intentId)) return [];
    try {
      const list = await this.stripe.refunds.list({ payment_intent: intentId, limit: 100 });
      return list.data.map((refund) => toRefund(refund, intentId));
    } catch (error) {
      throw badGateway(paymentMessages.providerUnavailable, error);
    }
  }

  verifyWebhook(rawBody: Buffer, signatureHeader: string | undefined): ProviderEvent {
    if (!this.webhookSecret) throw notFound();
    let event: Stripe.Event;
    try {
      event = this.stripe.webhooks.constructEvent(rawBody, signatureHeader ?? "", this.webhookSecret);
    } catch {
      throw badRequest(paymentMessages.webhookSignature);
    }
    const object: unknown = event.data.object;
    const field = (name: string) =>
      typeof object === "object" && object !== null && name in object
        ? (object as Record<string, unknown>)[name]
        : undefined;
    const asId = (value: unknown) => (typeof value === "string" ? value : null);
    if (event.type === "payment_intent.payment_failed") {
      const error = field("last_payment_error") as { decline_code?: string; code?: string } | undefined;
      const failureReason = error?.decline_code ?? error?.code ?? "unknown";
      return { id: event.id, type: event.type, kind: "payment", intentId: asId(field("id")), failureReason };
    }
    if (event.type.startsWith("payment_intent.")) {
      return { id: event.id, type: event.type, kind: "payment", intentId: asId(field("id")) };
    }
    // A charge's or a refund's intent: the shop asks the provider for that intent's refunds.
    if (event.type === "charge.refunded" || event.type.startsWith("refund.")) {
      return { id: event.id, type: event.type, kind: "refund", intentId: asId(field("payment_intent")) };
    }
    return { id: event.id, type: event.type, kind: "other", intentId: null };
  }
}

function toRefund(refund: Stripe.Refund, intentId: string): ProviderRefund {
  return { id: refund.id, intentId, amount: refund.amount, status: refund.status ?? "pending" };
}
