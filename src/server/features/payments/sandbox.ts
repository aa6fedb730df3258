import { randomBytes } from "node:crypto";
import { and, asc, eq, inArray, ne, sql } from "drizzle-orm";
import { orderMessages } from "../../../shared/messages/orders.js";
import { paymentMessages } from "../../../shared/messages/payments.js";
import type { SandboxConfirmInput, SandboxConfirmResult } from "../../../shared/payments.js";
import type { Db } from "../../db/client.js";
import { sandboxIntents } from "../../db/schema/index.js";
import { countPaymentFailure } from "../../lib/metrics.js";
import { badGateway, conflict, notFound, paymentRequired } from "../../lib/problem.js";
import type {
  CreatedIntent,
  IntentRequest,
  PaymentProvider,
  ProviderIntent,
  ProviderRefund,
  RefundRequest,
} from "./provider.js";

type Card = SandboxConfirmInput["card"];
type ConfirmedIntent = SandboxConfirmResult["paymentIntent"];

interface Brand {
  name: string;
  prefix: RegExp;
  lengths: number[];
  cvcLength: number;
}

// Named as Stripe names them in a charge's payment_method_details.card.brand, so both providers
// record the same words.
const BRANDS: Brand[] = [
  { name: "amex", prefix: /^3[47]/, lengths: [15], cvcLength: 4 },
  { name: "visa", prefix: /^4/, lengths: [13, 16, 19], cvcLength: 3 },
  {
    name: "mastercard",
    prefix: /^(5[1-5]|222[1-9]|22[3-9]\d|2[3-6]\d\d|27[01]\d|2720)/,
    lengths: [16],
    cvcLength: 3,
  },
  { name: "discover", prefix: /^(6011|65|64[4-9])/, lengths: [16, 17, 18, 19], cvcLength: 3 },
  { name: "diners", prefix: /^(30[0-5]|309|36|3[89])/, lengths: [14, 15, 16, 17, 18, 19], cvcLength: 3 },
  { name: "jcb", prefix: /^35(2[89]|[3-8]\d)/, lengths: [16, 17, 18, 19], cvcLength: 3 },
  { name: "unionpay", prefix: /^62/, lengths: [16, 17, 18, 19], cvcLength: 3 },
];
const UNKNOWN_BRAND: Brand = {
  name: "unknown",
  prefix: /^/,
  lengths: [12, 13, 14, 15, 16, 17, 18, 19],
  cvcLength: 3,
};

/** Stripe's test cards that succeed (docs.stripe.com/testing); every other valid number is declined. */
const SUCCEEDING = new Set([
  "4242424242424242",
  "4000056655665556",
  "5555555555554444",
  "2223003122003222",
  "5200828282828210",
  "5105105105105100",
  "378282246310005",
  "371449635398431",
  "6011111111111117",
  "6011000990139424",
  "3056930009020004",
  "36227206271667",
  "3566002020360505",
  "6200000000000005",
]);
const REFUSALS = new Map([
  ["4000000000000002", paymentMessages.cardDeclined],
  ["4000000000009995", paymentMessages.insufficientFunds],
]);

function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i += 1) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** A refusal: the message the customer reads, and the decline code Stripe would give (for metrics). */
type Verdict =
  | { approved: true; brand: string; last4: string }
  | { approved: false; message: string; reason: string };

/** Judges a card the way Stripe does in test mode: number, then expiry, then CVC, then the issuer. */
function judgeCard(card: Card, now: Date): Verdict {
  const digits = card.number.replaceAll(" ", "");
  const brand = BRANDS.find((b) => b.prefix.test(digits)) ?? UNKNOWN_BRAND;
  if (!/^\d+$/.test(digits) || !brand.lengths.includes(digits.length) || !luhnValid(digits)) {
    return { approved: false, message: paymentMessages.incorrectNumber, reason: "incorrect_number" };
  }
  // Two-digit years are how cards print them.
  const year = card.expYear < 100 ? 2000 + card.expYear : card.expYear;
  const thisYear = now.getUTCFullYear();
  if (card.expMonth < 1 || card.expMonth > 12 || year > thisYear + 50) {
    return { approved: false, message: paymentMessages.invalidExpiry, reason: "invalid_expiry" };
  }
  // A card is valid through the last day of its expiry month.
  if (year < thisYear || (year === thisYear && card.expMonth < now.getUTCMonth() + 1)) {
    return { approved: false, message: paymentMessages.expiredCard, reason: "expired_card" };
  }
  if (!new RegExp(`^\\d{${brand.cvcLength}}$`).test(card.cvc)) {
    return { approved: false, message: paymentMessages.incompleteCvc, reason: "incorrect_cvc" };
  }
  const refusal = REFUSALS.get(digits);
  if (refusal || !SUCCEEDING.has(digits)) {
    const reason = refusal === paymentMessages.insufficientFunds ? "insufficient_funds" : "card_declined";
    return { approved: false, message: refusal ?? paymentMessages.cardDeclined, reason };
  }
  return { approved: true, brand: brand.name, last4: digits.slice(-4) };
}

const token = (bytes: number) => randomBytes(bytes).toString("base64url").replaceAll(/[-_]/g, "x");

/**
 * The built-in provider: works offline and follows Stripe's test cards. Its intents live in
 * PostgreSQL so every instance sees them. Of a card it keeps only the brand and last four digits.
 */
export class SandboxProvider implements PaymentProvider {
  readonly name = "sandbox" as const;
  readonly publishableKey = null;

  constructor(private readonly db: Db) {}

  /** Hands back the order's open (or paid but unreported) intent for this amount, or makes one. */
  async createIntent(request: IntentRequest): Promise<CreatedIntent> {
    return this.db.transaction(async (tx) => {
      // Two tabs asking at once must still share one intent.
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`sandbox-intent:${request.orderId}`}))`);
      const [existing] = await tx
        .select({
          id: sandboxIntents.id,
          clientSecret: sandboxIntents.clientSecret,
          status: sandboxIntents.status,
        })
        .from(sandboxIntents)
        .where(
          and(
            eq(sandboxIntents.orderId, request.orderId),
            eq(sandboxIntents.amount, request.amount),
            eq(sandboxIntents.currency, request.currency),
            inArray(sandboxIntents.status, ["requires_payment_method", "succeeded"]),
          ),
        )
        .orderBy(sql`(${sandboxIntents.status} = 'succeeded') desc`, asc(sandboxIntents.createdAt))
        .limit(1);
      if (existing) return existing;
      const id = `pi_sandbox_${token(18)}`;
      const [created] = await tx
        .insert(sandboxIntents)
        .values({
          id,
          clientSecret: `${id}_secret_${token(24)}`,
          orderId: request.orderId,
          amount: request.amount,
          currency: request.currency,
          status: "requires_payment_method",
        })
        .returning({
          id: sandboxIntents.id,
          clientSecret: sandboxIntents.clientSecret,
          status: sandboxIntents.status,
        });
      if (!created) throw new Error("sandbox intent insert returned nothing");
      return created;
    });
  }

  async retrieve(intentId: string): Promise<ProviderIntent | null> {
    const [row] = await this.db.select().from(sandboxIntents).where(eq(sandboxIntents.id, intentId));
    if (!row) return null;
    return {
      id: row.id,
      orderId: row.orderId,
      amount: row.amount,
      currency: row.currency,
      status: row.status,
      cardBrand: row.cardBrand,
      cardLast4: row.cardLast4,
      refunded: row.refundId !== null,
    };
  }

  /** Cancels an open intent (as Stripe does); a succeeded or cancelled one is answered as it is. */
  async cancelIntent(intentId: string): Promise<ProviderIntent | null> {
    await this.db
      .update(sandboxIntents)
      .set({ status: "canceled" })
      .where(and(eq(sandboxIntents.id, intentId), eq(sandboxIntents.status, "requires_payment_method")));
    return this.retrieve(intentId);
  }

  /** Refunds a succeeded intent in full, once: a second request answers the first refund. */
  async refund(request: RefundRequest): Promise<ProviderRefund> {
    const [row] = await this.db
      .update(sandboxIntents)
      .set({ refundId: sql`coalesce(${sandboxIntents.refundId}, ${`re_sandbox_${token(18)}`})` })
      .where(and(eq(sandboxIntents.id, request.intentId), eq(sandboxIntents.status, "succeeded")))
      .returning({ refundId: sandboxIntents.refundId, amount: sandboxIntents.amount });
    if (!row?.refundId) {
      // Stripe refuses a refund of an intent that did not succeed; so does the sandbox.
      throw badGateway(orderMessages.refund.failed, new Error(`sandbox: ${request.intentId} not succeeded`));
    }
    return { id: row.refundId, intentId: request.intentId, amount: row.amount, status: "succeeded" };
  }

  async refundsOf(intentId: string): Promise<ProviderRefund[]> {
    const [row] = await this.db
      .select({ refundId: sandboxIntents.refundId, amount: sandboxIntents.amount })
      .from(sandboxIntents)
      .where(eq(sandboxIntents.id, intentId));
    return row?.refundId ? [{ id: row.refundId, intentId, amount: row.amount, status: "succeeded" }] : [];
  }

  verifyWebhook(): never {
    // The sandbox confirms in-process; it never calls back, so no event of it is ever verified.
    throw notFound();
  }

  async findByClientSecret(clientSecret: string): Promise<{ id: string; orderId: string } | null> {
    const [row] = await this.db
      .select({ id: sandboxIntents.id, orderId: sandboxIntents.orderId })
      .from(sandboxIntents)
      .where(eq(sandboxIntents.clientSecret, clientSecret));
    return row ?? null;
  }

  /**
   * Confirms an intent with a card. A refused card leaves the intent open with its last error and
   * throws 402 with the provider's message; an intent that already succeeded is answered again.
   */
  async confirm(intentId: string, card: Card): Promise<ConfirmedIntent> {
    const current = await this.retrieve(intentId);
    if (!current) throw notFound(paymentMessages.unknownIntent);
    if (current.status === "succeeded") return { id: current.id, status: "succeeded" };
    // Cancelled when its order was removed or expired: it can take no card any more.
    if (current.status === "canceled") throw conflict(paymentMessages.intentCanceled);

    const verdict = judgeCard(card, new Date());
    if (!verdict.approved) {
      countPaymentFailure(verdict.reason);
      // Never over a success that a concurrent confirmation just recorded.
      await this.db
        .update(sandboxIntents)
        .set({ lastError: verdict.message })
        .where(and(eq(sandboxIntents.id, intentId), ne(sandboxIntents.status, "succeeded")));
      throw paymentRequired(verdict.message);
    }
    const [done] = await this.db
      .update(sandboxIntents)
      .set({ status: "succeeded", lastError: null, cardBrand: verdict.brand, cardLast4: verdict.last4 })
      .where(and(eq(sandboxIntents.id, intentId), eq(sandboxIntents.status, "requires_payment_method")))
      .returning({ id: sandboxIntents.id });
    if (done) return { id: done.id, status: "succeeded" };
    // A concurrent confirmation got there first.
    const after = await this.retrieve(intentId);
    if (after?.status !== "succeeded") throw paymentRequired(paymentMessages.notCompleted);
    return { id: after.id, status: "succeeded" };
  }
}
