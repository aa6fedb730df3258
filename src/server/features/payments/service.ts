import { and, eq, type SQL, type SQLWrapper, sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import { orderMessages } from "../../../shared/messages/orders.js";
import { paymentMessages } from "../../../shared/messages/payments.js";
import type { Order } from "../../../shared/orders.js";
import type { PaymentIntent, SandboxConfirmInput, SandboxConfirmResult } from "../../../shared/payments.js";
import type { Db, Tx } from "../../db/client.js";
import { orders, paymentEvents, payments } from "../../db/schema/index.js";
import { badRequest, conflict, notFound, paymentRequired } from "../../lib/problem.js";
import type { SessionUser } from "../../plugins/session.js";
import { toOrder } from "../orders/index.js";
import type { PaymentProvider, ProviderEvent, ProviderIntent } from "./provider.js";
import type { SandboxProvider } from "./sandbox.js";

type OrderRow = typeof orders.$inferSelect;

const CURRENCY = "usd";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const CENTS_PER_DOLLAR = 100;

/**
 * Orders are priced in whole dollars; providers charge in cents. The one conversion, for a number
 * in JavaScript or for a column in SQL.
 */
function inCents(dollars: number): number;
function inCents(dollars: SQLWrapper): SQL<number>;
function inCents(dollars: number | SQLWrapper): number | SQL<number> {
  return typeof dollars === "number"
    ? dollars * CENTS_PER_DOLLAR
    : sql<number>`${dollars} * ${CENTS_PER_DOLLAR}`;
}

/** Paying is for the order's owner only; anyone else's order is "not found", admins included. */
async function ownOrder(db: Db, user: SessionUser, id: string): Promise<OrderRow> {
  const [row] = await db.select().from(orders).where(eq(orders.id, id));
  if (!row || row.userId !== user.id) throw notFound(orderMessages.notFound);
  return row;
}

type Settlement =
  | { outcome: "paid"; order: OrderRow }
  | { outcome: "paidByAnotherIntent" | "mismatch" | "orderMissing" };

/**
 * Marks the order of an intent the provider says succeeded as paid, and records its one payment.
 * /pay and the webhook both end here, so replays, double clicks, second tabs and webhooks arriving
 * early, late, twice or concurrently all converge: the conditional UPDATE lets exactly one caller
 * win, and every later caller finds the order already paid by the same intent.
 */
async function settle(
  tx: Tx,
  provider: PaymentProvider["name"],
  intent: ProviderIntent,
): Promise<Settlement> {
  const orderId = intent.orderId;
  // Another application's intents may share a Stripe account; their metadata is not ours to query.
  if (!orderId || !UUID.test(orderId) || intent.currency !== CURRENCY) return { outcome: "mismatch" };
  const [paid] = await tx
    .update(orders)
    .set({ status: "paid", transactionId: intent.id, paidAt: new Date() })
    .where(
      and(
        eq(orders.id, orderId),
        eq(orders.status, "pending"),
        eq(inCents(orders.totalPrice), intent.amount),
      ),
    )
    .returning();
  if (paid) {
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
  if (!row) return { outcome: "orderMissing" };
  if (row.transactionId === intent.id) return { outcome: "paid", order: row };
  return { outcome: row.status === "pending" ? "mismatch" : "paidByAnotherIntent" };
}

/** The intent for an order's own amount; whatever amount the client sends is never read. */
export async function createPaymentIntent(
  db: Db,
  provider: PaymentProvider,
  user: SessionUser,
  orderId: string,
): Promise<PaymentIntent> {
  const order = await ownOrder(db, user, orderId);
  if (order.status !== "pending") throw conflict(paymentMessages.alreadyPaid);
  const amount = inCents(order.totalPrice);
  const intent = await provider.createIntent({ orderId: order.id, amount, currency: CURRENCY });
  if (intent.status === "succeeded") {
    // The card was accepted but the tab closed before /pay: record the payment now, never charge twice.
    const paid = await provider.retrieve(intent.id);
    if (paid?.status === "succeeded") await db.transaction((tx) => settle(tx, provider.name, paid));
    throw conflict(paymentMessages.alreadyPaid);
  }
  return {
    provider: provider.name,
    clientSecret: intent.clientSecret,
    amount,
    currency: CURRENCY,
    publishableKey: provider.publishableKey,
  };
}

/**
 * Marks an order paid once the provider confirms that this intent belongs to it, has its amount and
 * succeeded. Asking again with the same intent answers the paid order again.
 */
export async function payOrder(
  db: Db,
  provider: PaymentProvider,
  log: FastifyBaseLogger,
  user: SessionUser,
  orderId: string,
  transactionId: string,
): Promise<Order> {
  const order = await ownOrder(db, user, orderId);
  if (order.status !== "pending") {
    if (order.transactionId === transactionId) return toOrder(order);
    throw conflict(paymentMessages.alreadyPaid);
  }
  const intent = await provider.retrieve(transactionId);
  if (
    !intent ||
    intent.orderId !== order.id ||
    intent.amount !== inCents(order.totalPrice) ||
    intent.currency !== CURRENCY
  ) {
    throw badRequest(paymentMessages.intentMismatch);
  }
  if (intent.status !== "succeeded") throw paymentRequired(paymentMessages.notCompleted);
  const result = await db.transaction((tx) => settle(tx, provider.name, intent));
  switch (result.outcome) {
    case "paid":
      return toOrder(result.order);
    case "paidByAnotherIntent":
      throw conflict(paymentMessages.alreadyPaid);
    case "mismatch":
      throw badRequest(paymentMessages.intentMismatch);
    case "orderMissing":
      // Removed while the card was being charged: someone has to refund this by hand.
      log.error({ orderId, intentId: intent.id }, "payment succeeded for an order that was removed");
      throw notFound(orderMessages.notFound);
  }
}

/**
 * Applies a verified webhook event. The event only says which intent to look at: the provider's
 * current answer decides, so duplicate, late, early and out-of-order events all end the same way.
 */
export async function applyWebhookEvent(
  db: Db,
  provider: PaymentProvider,
  log: FastifyBaseLogger,
  event: ProviderEvent,
): Promise<void> {
  const intentId = event.intentId;
  if (!intentId) return;
  const [seen] = await db
    .select({ id: paymentEvents.id })
    .from(paymentEvents)
    .where(eq(paymentEvents.id, event.id));
  if (seen) return;
  // Asked outside the transaction, so no database connection waits on the network.
  const intent = await provider.retrieve(intentId);
  await db.transaction(async (tx) => {
    const [fresh] = await tx
      .insert(paymentEvents)
      .values({ id: event.id, type: event.type })
      .onConflictDoNothing()
      .returning({ id: paymentEvents.id });
    // A concurrent delivery of the same event committed first.
    if (!fresh || intent?.status !== "succeeded") return;
    const result = await settle(tx, provider.name, intent);
    if (result.outcome !== "paid") {
      log.warn(
        { eventId: event.id, intentId, orderId: intent.orderId, outcome: result.outcome },
        "succeeded payment not applied to an order",
      );
    }
  });
}

/**
 * Confirms a sandbox intent with a card, for the owner of the intent's order only. The billing
 * details are accepted for the form's sake and not kept.
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
        .select({ status: orders.status, transactionId: orders.transactionId })
        .from(orders)
        .where(and(eq(orders.id, intent.orderId), eq(orders.userId, user.id)))
    : [];
  if (!intent || !order) throw notFound(paymentMessages.unknownIntent);
  // Never take a second payment for an order another intent already paid.
  if (order.status !== "pending" && order.transactionId !== intent.id) {
    throw conflict(paymentMessages.alreadyPaid);
  }
  return { paymentIntent: await sandbox.confirm(intent.id, input.card) };
}
