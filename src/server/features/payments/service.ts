import { and, eq, inArray } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import { orderMessages } from "../../../shared/messages/orders.js";
import { paymentMessages } from "../../../shared/messages/payments.js";
import type { Order } from "../../../shared/orders.js";
import type { PaymentIntent, SandboxConfirmInput, SandboxConfirmResult } from "../../../shared/payments.js";
import type { Db, Tx } from "../../db/client.js";
import { orderIntents, orders, paymentEvents, payments, refunds } from "../../db/schema/index.js";
import { countOrders, countPaymentFailure } from "../../lib/metrics.js";
import { badRequest, conflict, type HttpProblem, notFound, paymentRequired } from "../../lib/problem.js";
import { returnToStock, stockCause } from "../../lib/stock.js";
import type { SessionUser } from "../../plugins/session.js";
import { type Actor, recordActivity } from "../activity/index.js";
import type { CatalogChange } from "../catalog/index.js";
import { movableBy, nextStatus, toOrder, verdict } from "../orders/index.js";
import type { PaymentProvider, ProviderEvent, ProviderIntent, RefundReason } from "./provider.js";
import type { SandboxProvider } from "./sandbox.js";

type OrderRow = typeof orders.$inferSelect;

const CURRENCY = "usd";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Paying is for the order's owner only; anyone else's order is "not found", admins included. */
async function ownOrder(db: Db, user: SessionUser, id: string): Promise<OrderRow> {
  const [row] = await db.select().from(orders).where(eq(orders.id, id));
  if (!row || row.userId !== user.id) throw notFound(orderMessages.notFound);
  return row;
}

/** Why an order in `status` cannot be paid (409), or the "already paid" answer for a paid one. */
function cannotPay(status: OrderRow["status"]): HttpProblem {
  const v = verdict(status, "pay");
  return v.kind === "refused" ? v.problem : conflict(paymentMessages.alreadyPaid);
}

/** Whether an unpaid order's hold has run out (the expiry job may not have expired it yet). */
const holdRanOut = (order: Pick<OrderRow, "status" | "expiresAt">) =>
  order.status === "pending" && order.expiresAt !== null && order.expiresAt <= new Date();

type Settlement =
  | { outcome: "paid"; order: OrderRow }
  | { outcome: "mismatch" }
  /** The intent succeeded but no order takes it: refunded (settleIntent), with the order's answer. */
  | { outcome: "refund"; reason: RefundReason; orderId: string | null; problem: HttpProblem };

/**
 * Marks the order of an intent the provider says succeeded as paid (the lifecycle's pending ->
 * paid), and records its one payment. /pay, the webhook and the payment page's intent all end here,
 * so replays, double clicks, second tabs and webhooks arriving early, late, twice or concurrently
 * converge: the conditional UPDATE lets exactly one caller win, and every later caller finds the
 * order already paid by the same intent. A success no order can take (the order was removed,
 * expired, or paid by another intent) is to be refunded.
 */
async function settle(
  tx: Tx,
  provider: PaymentProvider["name"],
  intent: ProviderIntent,
): Promise<Settlement> {
  const orderId = intent.orderId;
  // Another application's intents may share a Stripe account; their metadata is not ours to query.
  if (!orderId || !UUID.test(orderId) || intent.currency !== CURRENCY) return { outcome: "mismatch" };
  // A charge refunded before the shop heard of it (at the provider's dashboard, its success event
  // delayed) pays nothing: the order stays unpaid and holds its units until it is paid or expires.
  const [paid] = intent.refunded
    ? []
    : await tx
        .update(orders)
        .set({ status: nextStatus("pay"), transactionId: intent.id, paidAt: new Date() })
        .where(and(eq(orders.id, orderId), movableBy("pay"), eq(orders.grossCents, intent.amount)))
        .returning();
  if (paid) {
    countOrders("paid");
    await tx
      .insert(payments)
      .values({
        orderId,
        provider,
        intentId: intent.id,
        amount: intent.amount,
        currency: intent.currency,
        cardBrand: intent.cardBrand,
        cardLast4: intent.cardLast4,
      })
      .onConflictDoNothing();
    return { outcome: "paid", order: paid };
  }
  const [row] = await tx.select().from(orders).where(eq(orders.id, orderId));
  if (!row) {
    // Refunded only when this shop made the intent (another application's metadata may look alike).
    const [ours] = await tx
      .select({ id: orderIntents.intentId })
      .from(orderIntents)
      .where(eq(orderIntents.intentId, intent.id));
    if (!ours) return { outcome: "mismatch" };
    return {
      outcome: "refund",
      reason: "order_removed",
      orderId: null,
      problem: notFound(orderMessages.notFound),
    };
  }
  if (row.transactionId === intent.id) return { outcome: "paid", order: row };
  if (row.status === "pending") return { outcome: "mismatch" };
  if (row.grossCents !== intent.amount) return { outcome: "mismatch" };
  const reason = row.status === "expired" ? "order_expired" : "duplicate_charge";
  return { outcome: "refund", reason, orderId: row.id, problem: cannotPay(row.status) };
}

/**
 * Refunds an intent in full through the provider and records the refund; both are idempotent per
 * intent (the provider's idempotency, refund.intent_id unique), so racing callers make one refund.
 */
async function refundIntent(
  db: Db,
  provider: PaymentProvider,
  intent: { id: string; amount: number },
  orderId: string | null,
  reason: RefundReason,
): Promise<void> {
  const refund = await provider.refund({ intentId: intent.id, amount: intent.amount, orderId, reason });
  await db
    .insert(refunds)
    .values({ orderId, intentId: intent.id, providerRefundId: refund.id, amount: refund.amount, reason })
    .onConflictDoNothing();
}

/** Settles a succeeded intent (see settle) and refunds it when no order takes it. */
async function settleIntent(db: Db, provider: PaymentProvider, intent: ProviderIntent): Promise<Settlement> {
  const result = await db.transaction((tx) => settle(tx, provider.name, intent));
  if (result.outcome === "refund") {
    await refundIntent(db, provider, intent, result.orderId, result.reason);
  }
  return result;
}

/** The intent for an order's own amount; whatever amount the client sends is never read. */
export async function createPaymentIntent(
  db: Db,
  provider: PaymentProvider,
  user: SessionUser,
  orderId: string,
): Promise<PaymentIntent> {
  const order = await ownOrder(db, user, orderId);
  if (order.status !== "pending") throw cannotPay(order.status);
  if (holdRanOut(order)) throw conflict(orderMessages.lifecycle.expired);
  const amount = order.grossCents;
  const intent = await provider.createIntent({ orderId: order.id, amount, currency: CURRENCY });
  // Recorded so that removing or expiring the order cancels it.
  await db
    .insert(orderIntents)
    .values({ intentId: intent.id, orderId: order.id, provider: provider.name })
    .onConflictDoNothing();
  if (intent.status === "succeeded") {
    // The card was accepted but the tab closed before /pay: record the payment now, never charge twice.
    const paid = await provider.retrieve(intent.id);
    if (paid?.status === "succeeded") {
      const result = await settleIntent(db, provider, paid);
      if (result.outcome === "refund") throw result.problem;
    }
    throw conflict(paymentMessages.alreadyPaid);
  }
  // Removed or expired while the intent was being made: that removal or expiry may have looked for
  // the order's intents before this one was recorded, so it is cancelled here.
  const [now] = await db.select({ status: orders.status }).from(orders).where(eq(orders.id, order.id));
  if (now?.status !== "pending") {
    await releaseIntent(
      db,
      provider,
      intent.id,
      now ? order.id : null,
      now ? "order_expired" : "order_removed",
    );
    throw now ? cannotPay(now.status) : notFound(orderMessages.notFound);
  }
  return {
    provider: provider.name,
    clientSecret: intent.clientSecret,
    amount,
    currency: CURRENCY,
    publishableKey: provider.publishableKey,
  };
}

/** Whether a provider's intent is a success of this order's amount. */
const succeededFor = (intent: ProviderIntent | null, order: OrderRow): intent is ProviderIntent =>
  intent !== null &&
  intent.orderId === order.id &&
  intent.amount === order.grossCents &&
  intent.currency === CURRENCY &&
  intent.status === "succeeded";

/**
 * Marks an order paid once the provider confirms that this intent belongs to it, has its amount and
 * succeeded. Asking again with the same intent answers the paid order again. A success for an order
 * that cannot take it any more (paid by another intent, expired) is refunded and answered 409.
 */
export async function payOrder(
  db: Db,
  provider: PaymentProvider,
  user: SessionUser,
  orderId: string,
  transactionId: string,
): Promise<Order> {
  const order = await ownOrder(db, user, orderId);
  if (order.status !== "pending") {
    if (order.transactionId === transactionId) return toOrder(order);
    const second = await provider.retrieve(transactionId);
    if (succeededFor(second, order)) await settleIntent(db, provider, second);
    throw cannotPay(order.status);
  }
  const intent = await provider.retrieve(transactionId);
  if (
    !intent ||
    intent.orderId !== order.id ||
    intent.amount !== order.grossCents ||
    intent.currency !== CURRENCY
  ) {
    throw badRequest(paymentMessages.intentMismatch);
  }
  if (intent.status !== "succeeded") throw paymentRequired(paymentMessages.notCompleted);
  const result = await settleIntent(db, provider, intent);
  switch (result.outcome) {
    case "paid":
      return toOrder(result.order);
    case "mismatch":
      throw badRequest(paymentMessages.intentMismatch);
    case "refund":
      throw result.problem;
  }
}

/**
 * Cancels one intent of an order that left "pending" unpaid (removed or expired); one that
 * succeeded meanwhile is refunded. Safe to repeat.
 */
async function releaseIntent(
  db: Db,
  provider: PaymentProvider,
  intentId: string,
  orderId: string | null,
  reason: "order_removed" | "order_expired",
): Promise<void> {
  const intent = await provider.cancelIntent(intentId);
  if (intent?.status === "succeeded") await refundIntent(db, provider, intent, orderId, reason);
}

/**
 * What the orders feature calls once orders were removed or expired (app.ts hands it over): each
 * of their recorded intents is cancelled at the provider, or refunded if it succeeded meanwhile.
 * A provider that cannot be reached leaves the intent open; a payment that still succeeds on it
 * finds no order to take it and is refunded then (settle).
 */
export function intentReleaser(db: Db, provider: PaymentProvider, log: FastifyBaseLogger) {
  return async (orderIds: string[], reason: "order_removed" | "order_expired"): Promise<void> => {
    if (orderIds.length === 0) return;
    const intents = await db
      .select({ intentId: orderIntents.intentId, orderId: orderIntents.orderId })
      .from(orderIntents)
      .where(inArray(orderIntents.orderId, orderIds));
    for (const { intentId, orderId } of intents) {
      try {
        await releaseIntent(db, provider, intentId, reason === "order_removed" ? null : orderId, reason);
      } catch (error) {
        log.warn({ err: error, intentId, orderId, reason }, "payment intent not cancelled yet");
      }
    }
  };
}

/**
 * An admin refunds a paid, not shipped order in full (paid -> refunded): the order's row is locked
 * while the provider refunds, so a concurrent ship, refund or refund webhook waits and then finds
 * it refunded; if the provider refuses or cannot be reached, nothing changes (502). The units go
 * back to stock and the refund is recorded with the provider's id. Refunding a refunded order
 * answers it again (a retry or a double click).
 */
export async function refundOrder(
  db: Db,
  provider: PaymentProvider,
  orderId: string,
  change: CatalogChange,
  actor?: Actor,
): Promise<Order> {
  return db.transaction(async (tx) => {
    const [row] = await tx.select().from(orders).where(eq(orders.id, orderId)).for("update");
    if (!row) throw notFound(orderMessages.notFound);
    const v = verdict(row.status, "refund");
    if (v.kind === "refused") throw v.problem;
    if (v.kind === "already") return toOrder(row);
    if (!row.transactionId) throw new Error(`paid order ${row.id} without a transaction id`);
    const intent = { id: row.transactionId, amount: row.grossCents };
    const refund = await provider.refund({
      intentId: intent.id,
      amount: intent.amount,
      orderId,
      reason: "admin",
    });
    await tx
      .insert(refunds)
      .values({
        orderId,
        intentId: intent.id,
        providerRefundId: refund.id,
        amount: refund.amount,
        reason: "admin",
      })
      .onConflictDoNothing();
    const refunded = await markRefunded(tx, row, change);
    if (actor) {
      await recordActivity(tx, actor, {
        action: "order.refunded",
        targetType: "order",
        targetId: orderId,
        changes: { status: [row.status, refunded.status], amount: [null, refund.amount] },
      });
    }
    return toOrder(refunded);
  });
}

/** paid -> refunded on a locked or conditional row, its units back in stock. */
async function markRefunded(tx: Tx, row: OrderRow, change: CatalogChange): Promise<OrderRow> {
  // The ledger's cause before the order's lock, so no round trip stands between it and the product's.
  await stockCause(tx, { reason: "refund", orderId: row.id });
  const [refunded] = await tx
    .update(orders)
    .set({ status: nextStatus("refund"), refundedAt: new Date() })
    .where(and(eq(orders.id, row.id), movableBy("refund")))
    .returning();
  if (!refunded) return row;
  countOrders("refunded");
  const { productId, quantity } = refunded;
  if (productId) await returnToStock(tx, { productId, quantity }, change);
  return refunded;
}

/** Records the event as applied; false when it was already (a duplicate delivery). */
async function firstDelivery(tx: Tx, event: ProviderEvent): Promise<boolean> {
  const [fresh] = await tx
    .insert(paymentEvents)
    .values({ id: event.id, type: event.type })
    .onConflictDoNothing()
    .returning({ id: paymentEvents.id });
  return Boolean(fresh);
}

/**
 * Applies a verified webhook event. The event only says which intent to look at: the provider's
 * current answer decides, so duplicate, late, early and out-of-order events all end the same way.
 * Payment events settle the intent (refunding a success no order takes); refund events record the
 * intent's refunds, and a refund made at the provider (its dashboard) refunds a paid order.
 */
export async function applyWebhookEvent(
  db: Db,
  provider: PaymentProvider,
  log: FastifyBaseLogger,
  event: ProviderEvent,
  change: CatalogChange,
): Promise<void> {
  const intentId = event.intentId;
  if (!intentId || event.kind === "other") return;
  const [seen] = await db
    .select({ id: paymentEvents.id })
    .from(paymentEvents)
    .where(eq(paymentEvents.id, event.id));
  if (seen) return;
  if (event.failureReason) countPaymentFailure(event.failureReason);
  // Asked outside the transaction, so no database connection waits on the network.
  if (event.kind === "refund") {
    const [intent, made] = await Promise.all([provider.retrieve(intentId), provider.refundsOf(intentId)]);
    await db.transaction(async (tx) => {
      if (!(await firstDelivery(tx, event))) return;
      const refund = made.find((r) => r.status === "succeeded" || r.status === "pending");
      if (!refund || !intent) return;
      const [row] = await tx.select().from(orders).where(eq(orders.transactionId, intentId)).for("update");
      const orderId = row?.id ?? null;
      await tx
        .insert(refunds)
        .values({ orderId, intentId, providerRefundId: refund.id, amount: refund.amount, reason: "admin" })
        .onConflictDoNothing();
      // Refunded in full at the provider: a paid order is refunded; a shipped one stays shipped.
      if (row && refund.amount >= intent.amount && verdict(row.status, "refund").kind === "move") {
        await markRefunded(tx, row, change);
      }
    });
    return;
  }
  const intent = await provider.retrieve(intentId);
  const result = await db.transaction(async (tx) => {
    // A concurrent delivery of the same event committed first.
    if (!(await firstDelivery(tx, event)) || intent?.status !== "succeeded") return null;
    return settle(tx, provider.name, intent);
  });
  if (!result || !intent) return;
  if (result.outcome === "mismatch") {
    log.warn(
      { eventId: event.id, intentId, orderId: intent.orderId },
      "succeeded payment of no order of this shop",
    );
  }
  if (result.outcome === "refund") {
    try {
      await refundIntent(db, provider, intent, result.orderId, result.reason);
    } catch (error) {
      // Not applied after all: the provider's retry of this event refunds it.
      await db.delete(paymentEvents).where(eq(paymentEvents.id, event.id));
      throw error;
    }
  }
}

/**
 * Confirms a sandbox intent with a card, for the owner of the intent's order only. The billing
 * details are accepted for the form's sake and not kept. An order that can no longer be paid
 * (expired, refunded, paid by another intent) answers 409 and no card is charged.
 */
export async function confirmSandboxPayment(
  db: Db,
  sandbox: SandboxProvider,
  user: SessionUser,
  input: SandboxConfirmInput,
): Promise<SandboxConfirmResult> {
  const intent = await sandbox.findByClientSecret(input.clientSecret);
  const [order] = intent
    ? await db
        .select({ status: orders.status, transactionId: orders.transactionId, expiresAt: orders.expiresAt })
        .from(orders)
        .where(and(eq(orders.id, intent.orderId), eq(orders.userId, user.id)))
    : [];
  if (!intent || !order) throw notFound(paymentMessages.unknownIntent);
  // Never take a second payment for an order another intent already paid.
  if (order.status !== "pending" && order.transactionId !== intent.id) throw cannotPay(order.status);
  if (holdRanOut(order)) throw conflict(orderMessages.lifecycle.expired);
  return { paymentIntent: await sandbox.confirm(intent.id, input.card) };
}
