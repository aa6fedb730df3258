import { createHash } from "node:crypto";
import { and, eq, getTableColumns, sql } from "drizzle-orm";
import { MAX_ORDER_TOTAL, MIN_CHARGE_CENTS, MIN_ORDER_QUANTITY } from "../../../shared/constants.js";
import { orderMessages } from "../../../shared/messages/orders.js";
import { pricingMessages } from "../../../shared/messages/pricing.js";
import {
  type Order,
  type OrderInput,
  orderTotalTooLarge,
  type ShipOrderInput,
  withinOrderTotal,
} from "../../../shared/orders.js";
import { type Quote, type QuoteInput, tierPrice } from "../../../shared/pricing.js";
import { problemCodes } from "../../../shared/problem-codes.js";
import { type Db, preparesByName } from "../../db/client.js";
import { idempotencyKeys, orders, products, rateLimits } from "../../db/schema/index.js";
import { hasSqlState } from "../../db/sql-state.js";
import { countOrders } from "../../lib/metrics.js";
import {
  badRequest,
  conflict,
  forbidden,
  gone,
  HttpProblem,
  notFound,
  TooManyRequests,
  unprocessable,
} from "../../lib/problem.js";
import { enforceRateLimit } from "../../lib/rate-limit.js";
import { returnToStock, stockCause } from "../../lib/stock.js";
import { activeTraceParent, TRACE_SETTING, tracingOn } from "../../lib/tracing.js";
import type { SessionUser } from "../../plugins/session.js";
import { type Actor, recordActivity } from "../activity/index.js";
import type { CatalogChange } from "../catalog/index.js";
import { movableBy, nextStatus, verdict } from "./lifecycle.js";

/**
 * What one customer's unpaid orders may hold, how long an order holds its units, and how many
 * bookings an account and a client address may make an hour (config.orders; docs/product.md).
 */
export interface BookingRules {
  holdSeconds: number;
  maxUnpaid: number;
  maxUnpaidUnits: number;
  maxSharePercent: number;
  accountLimitPerHour: number;
  addressLimitPerHour: number;
}

/** Who books: the signed-in customer, and the client address the request came from. */
export interface Booker {
  user: SessionUser;
  address: string;
}

/** The code of the 403 answered to a booking from an account whose email is not verified. */
const EMAIL_NOT_VERIFIED = problemCodes.emailNotVerified;

/** Booking needs a verified email address (docs/product.md): 403 with a stable code otherwise. */
export function requireVerifiedEmail(user: SessionUser): void {
  if (user.emailVerified) return;
  throw new HttpProblem(
    403,
    forbidden().title,
    orderMessages.emailNotVerified,
    undefined,
    EMAIL_NOT_VERIFIED,
  );
}

type OrderRow = typeof orders.$inferSelect;

const iso = (at: Date | null) => at?.toISOString() ?? null;

/** The answer for an order: any row of it, with or without its search text (never answered). */
export function toOrder(row: Omit<OrderRow, "searchText">): Order {
  return {
    id: row.id,
    productId: row.productId,
    productName: row.productName,
    img: row.img,
    name: row.name,
    email: row.email,
    address: row.address,
    quantity: row.quantity,
    phone: row.phone,
    unitPrice: row.unitPrice,
    totalPrice: row.totalPrice,
    discountCode: row.discountCode,
    discountCents: row.discountCents,
    netCents: row.netCents,
    taxCents: row.taxCents,
    grossCents: row.grossCents,
    taxRateBp: row.taxRateBp,
    pricesIncludeTax: row.pricesIncludeTax,
    companyName: row.companyName,
    companyTaxId: row.companyTaxId,
    paid: row.paidAt !== null || (row.status !== "pending" && row.status !== "expired"),
    status: row.status,
    transactionId: row.transactionId,
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.status === "pending" ? iso(row.expiresAt) : null,
    paidAt: iso(row.paidAt),
    shippedAt: iso(row.shippedAt),
    refundedAt: iso(row.refundedAt),
    expiredAt: iso(row.expiredAt),
    carrier: row.carrier,
    trackingNumber: row.trackingNumber,
    creditNoteNumber: row.creditNoteNumber,
  };
}

function requestHash(input: OrderInput): string {
  const canonical = JSON.stringify([
    input.productId,
    input.quantity,
    input.address,
    input.phone,
    input.img ?? null,
    input.discountCode || null,
    input.companyName || null,
    input.companyTaxId || null,
  ]);
  return createHash("sha256").update(canonical).digest("hex");
}

export interface Placed {
  order: Order;
  replayed: boolean;
}

/** SQLSTATE of book_order when it took no stock (migration 0013): nothing of the call was kept. */
const NOT_BOOKED = "GH409";
/** PostgreSQL's SQLSTATE for a foreign key not found. */
const FOREIGN_KEY_VIOLATION = "23503";
/** SQLSTATE of an order of an archived product, refused by the trigger of migration 0017. */
const ARCHIVED = "GH410";
/** SQLSTATE of book_order over a booking limit (migration 0014): HINT says whose, DETAIL the seconds left. */
const OVER_LIMIT = "GH429";

/** How many quotes with a code an account may ask for an hour. */
const CODE_TRIES = { max: 60, windowSeconds: 3600 };

/** SQLSTATE of a discount code that does not apply (check_discount_code, migration 0024): HINT says why. */
const CODE_REFUSED = "GH422";
/** SQLSTATE of book_order when the gross, tax added, is over what one payment can take (migration 0024). */
const OVER_TOTAL = "GH400";
/** SQLSTATE of quote_order for a product not on sale (migration 0024). */
const NO_PRODUCT = "GH404";

/** The PostgreSQL error inside what Drizzle threw, with the fields book_order sets. */
function pgError(error: unknown, code = OVER_LIMIT): { hint?: string; detail?: string } {
  const e = error as { code?: unknown; cause?: unknown; hint?: string; detail?: string };
  if (e?.code === code) return e;
  return e?.cause && e.cause !== e ? pgError(e.cause, code) : {};
}

/** The 422 for a discount code that does not apply, in words, at the form's field. */
function codeRefused(error: unknown): HttpProblem {
  const { hint, detail } = pgError(error, CODE_REFUSED);
  const m = pricingMessages.code;
  const text =
    hint === "ended"
      ? m.ended
      : hint === "min-quantity"
        ? m.minQuantity(Number.parseInt(detail ?? "", 10) || MIN_ORDER_QUANTITY)
        : hint === "not-applicable"
          ? m.notApplicable
          : hint === "used-up"
            ? m.usedUp
            : hint === "customer-limit"
              ? m.customerLimit
              : m.unknown;
  return new HttpProblem(
    422,
    unprocessable(text).title,
    text,
    [{ path: "discountCode", message: text }],
    problemCodes.discountCodeRefused,
  );
}

/**
 * What booking would cost now (quote_order, migration 0024): the tier's unit price, the code's
 * discount and the tax, by the rules book_order applies. Takes nothing: the booking checks again.
 */
export async function quoteOrder(db: Db, user: SessionUser, input: QuoteInput): Promise<Quote> {
  // Codes are short: an account may try so many an hour, so none is found by guessing.
  if (input.discountCode)
    await enforceRateLimit(db, `quote:code:${user.id}`, CODE_TRIES, (retry) =>
      pricingMessages.code.tooManyTries(Math.ceil(retry / 60)),
    );
  try {
    const result = await db.execute<Quote>(sql`select unit_price as "unitPrice", total_price as "totalPrice",
      applied_code as "discountCode", discount_cents as "discountCents", net_cents as "netCents",
      tax_cents as "taxCents", gross_cents as "grossCents", tax_rate_bp as "taxRateBp",
      prices_include_tax as "pricesIncludeTax"
      from quote_order(${user.id}, ${input.productId}::uuid, ${input.quantity}::int,
        ${input.discountCode ?? null}::text, ${MIN_CHARGE_CENTS}::int)`);
    const quote = result.rows[0];
    if (!quote) throw notFound(orderMessages.productMissing);
    return quote;
  } catch (error) {
    if (hasSqlState(error, NO_PRODUCT)) throw notFound(orderMessages.productMissing);
    if (hasSqlState(error, CODE_REFUSED)) throw codeRefused(error);
    throw error;
  }
}

/** The 429 for a booking over its account's or its address's limit, in words. */
function overLimit(error: unknown, rules: BookingRules): TooManyRequests {
  const { hint, detail } = pgError(error);
  const retry = Math.max(1, Number.parseInt(detail ?? "", 10) || 3600);
  const minutes = Math.ceil(retry / 60);
  const text =
    hint === "address"
      ? orderMessages.limits.addressRateLimited(rules.addressLimitPerHour, minutes)
      : orderMessages.limits.accountRateLimited(rules.accountLimitPerHour, minutes);
  return new TooManyRequests(text, retry);
}

/** Every column of an order but its search text (never answered). */
const { searchText: _searchText, ...orderColumns } = getTableColumns(orders);

/** book_order's parameters (migration 0024), by name: the prepared booking fills them in. */
const BOOKING_PARAMETERS = [
  ["booker", "text"],
  ["bookerName", "text"],
  ["bookerEmail", "text"],
  ["bookerAddress", "text"],
  ["productId", "uuid"],
  ["units", "integer"],
  ["shipTo", "text"],
  ["shipPhone", "text"],
  ["img", "text"],
  ["holdSeconds", "integer"],
  ["maxUnpaid", "integer"],
  ["maxUnpaidUnits", "integer"],
  ["sharePercent", "integer"],
  ["minUnits", "integer"],
  ["accountLimit", "integer"],
  ["addressLimit", "integer"],
  ["maxTotal", "bigint"],
  ["idempotencyKey", "text"],
  ["idempotencyHash", "text"],
  ["discountCode", "text"],
  ["companyName", "text"],
  ["companyTaxId", "text"],
  ["minCharge", "integer"],
] as const;
type BookingParameters = Record<(typeof BOOKING_PARAMETERS)[number][0], string | number | null>;

/**
 * The booking's statement, built once per database and prepared on each connection (the hot path:
 * built per request, Drizzle's query building was a sixth of the server's time at 200 orders/s;
 * docs/decisions/order-stalls.md). It sends no notification: the instance tells the others of the
 * stock it took after the commit (changeCatalog), so bookings' commits do not queue for the lock of
 * PostgreSQL's notification queue.
 */
const preparedBookings = new WeakMap<Db, ReturnType<typeof prepareBooking>>();

function prepareBooking(db: Db) {
  const args = sql.join(
    BOOKING_PARAMETERS.map(([name, type]) =>
      // When the shop records traces, the booking's transaction is told its trace (lib/tracing.ts)
      // before book_order runs (an argument is evaluated before the call), so that the mail its
      // order queues keeps the trace: set_config's local value lasts as long as this statement.
      name === "booker" && tracingOn()
        ? sql`(select ${sql.placeholder(name)}::text from set_config(${TRACE_SETTING}, ${sql.placeholder("traceParent")}::text, true))`
        : sql`${sql.placeholder(name)}::${sql.raw(type)}`,
    ),
    sql`, `,
  );
  const booked = db.$with("booked", orderColumns).as(sql`select * from book_order(${args})`);
  // Prepared by name on each connection; through a transaction pooler, unnamed (parsed each time).
  return db
    .with(booked)
    .select(booked._.selectedFields)
    .from(booked)
    .prepare(preparesByName(db) ? "book_order" : "");
}

/**
 * Books in one statement, on its own: book_order (migration 0020) claims the Idempotency-Key when
 * there is one, takes the customer's booking lock, checks the cap, takes the stock and writes the
 * order with its hold's end, and the commit follows in the database, so the product's row lock is
 * never held across a round trip to the shop. The order booked; undefined for a retry of a key
 * taken before; throws a GH409 error when no stock was taken.
 */
async function bookOrder(
  db: Db,
  { user, address }: Booker,
  input: OrderInput,
  change: CatalogChange,
  rules: BookingRules,
  idempotency?: { key: string; hash: string },
): Promise<Omit<OrderRow, "searchText"> | undefined> {
  let prepared = preparedBookings.get(db);
  if (!prepared) {
    prepared = prepareBooking(db);
    preparedBookings.set(db, prepared);
  }
  // Tells this instance's cache, and the others, once the statement has committed (changeCatalog).
  change(input.productId);
  const parameters: BookingParameters = {
    booker: user.id,
    bookerName: user.name,
    bookerEmail: user.email,
    bookerAddress: address,
    productId: input.productId,
    units: input.quantity,
    shipTo: input.address,
    shipPhone: input.phone,
    img: input.img ?? null,
    holdSeconds: rules.holdSeconds,
    maxUnpaid: rules.maxUnpaid,
    maxUnpaidUnits: rules.maxUnpaidUnits,
    sharePercent: rules.maxSharePercent,
    minUnits: MIN_ORDER_QUANTITY,
    accountLimit: rules.accountLimitPerHour,
    addressLimit: rules.addressLimitPerHour,
    maxTotal: MAX_ORDER_TOTAL,
    idempotencyKey: idempotency?.key ?? null,
    idempotencyHash: idempotency?.hash ?? null,
    discountCode: input.discountCode || null,
    companyName: input.companyName || null,
    companyTaxId: input.companyTaxId || null,
    minCharge: MIN_CHARGE_CENTS,
  };
  const [row] = await prepared.execute(
    tracingOn() ? { ...parameters, traceParent: activeTraceParent() ?? "" } : parameters,
  );
  if (row) countOrders("placed");
  return row;
}

/**
 * A customer's unpaid orders that still hold units, as a subquery (order_user_pending_idx). An
 * order whose hold ran out, waiting for the expiry job, no longer counts.
 */
const heldBy = (userId: string) =>
  sql`(select quantity, product_id from ${orders} where ${orders.userId} = ${userId} and ${orders.status} = 'pending' and ${orders.expiresAt} > now()) as held`;

/** A share of a product's stock (ORDER_MAX_SHARE_PERCENT), never fewer units than the minimum order. */
const shareOf = (stock: number, rules: BookingRules) =>
  Math.max(MIN_ORDER_QUANTITY, Math.floor((stock * rules.maxSharePercent) / 100));

/**
 * Why no stock was taken, read after the refusal: 404 once the product is gone, 410 once it is
 * archived, 400 when the order
 * would total more than one payment can take, 409 when the customer holds too much unpaid already
 * (the cap), when the stock is short (out of stock), or when the customer, or the client address,
 * would hold more than its share of the product (book_order in migration 0014).
 */
async function notPlaced(
  db: Db,
  { user, address }: Booker,
  input: OrderInput,
  rules: BookingRules,
): Promise<never> {
  const [product] = await db
    .select({
      price: products.price,
      priceTiers: products.priceTiers,
      quantity: products.quantity,
      archivedAt: products.archivedAt,
    })
    .from(products)
    .where(eq(products.id, input.productId));
  if (!product) throw notFound(orderMessages.productMissing);
  if (product.archivedAt) throw archived();
  if (!withinOrderTotal(tierPrice(product.price, product.priceTiers, input.quantity), input.quantity))
    throw badRequest(orderTotalTooLarge());
  const held = await db.execute<{ orders: number; units: number; mine: number }>(
    sql`select count(*)::int as orders, coalesce(sum(quantity), 0)::int as units,
      coalesce(sum(quantity) filter (where product_id = ${input.productId}), 0)::int as mine
      from ${heldBy(user.id)}`,
  );
  const { orders: count = 0, units = 0, mine = 0 } = held.rows[0] ?? {};
  if (count >= rules.maxUnpaid) throw conflict(orderMessages.lifecycle.tooManyUnpaid(rules.maxUnpaid));
  if (units + input.quantity > rules.maxUnpaidUnits) {
    throw conflict(
      orderMessages.lifecycle.tooManyUnits(
        rules.maxUnpaidUnits.toLocaleString("en-US"),
        units.toLocaleString("en-US"),
      ),
    );
  }
  if (product.quantity < input.quantity) throw conflict(orderMessages.outOfStock);
  const yours = shareOf(product.quantity + mine, rules);
  if (mine + input.quantity > yours)
    throw conflict(orderMessages.limits.overShare(rules.maxSharePercent, yours, mine));
  if (rules.addressLimitPerHour > 0) {
    const booked = await db.execute<{ units: number }>(
      sql`select coalesce(max(count), 0)::int as units from ${rateLimits}
        where ${rateLimits.key} = ${`booking:address-units:${address}:${input.productId}`}
          and ${rateLimits.windowStart} > now() - make_interval(secs => ${rules.holdSeconds})`,
    );
    const fromAddress = booked.rows[0]?.units ?? 0;
    const share = shareOf(product.quantity + fromAddress, rules);
    if (fromAddress + input.quantity > share)
      throw conflict(orderMessages.limits.addressOverShare(rules.maxSharePercent, share));
  }
  throw conflict(orderMessages.outOfStock);
}

/**
 * The 410 for booking an archived product. No read before booking looks for it: the trigger of
 * migration 0017 refuses the order inside book_order's own statement (GH410), which also covers an
 * archive that commits while the booking waits, and a booking refused for another reason reads the
 * product afterwards anyway (notPlaced).
 */
const archived = () => gone(orderMessages.productArchived, problemCodes.productArchived);

/**
 * Books an order (see bookOrder). With an Idempotency-Key, a retry with the same key gets the first
 * order back instead of a second one, or 422 when it asks for something else.
 */
export async function placeOrder(
  db: Db,
  booker: Booker,
  input: OrderInput,
  change: CatalogChange,
  rules: BookingRules,
  idempotencyKey?: string,
): Promise<Placed> {
  // Hashed only for a keyed request: an unkeyed booking has nothing to compare it with.
  const idempotency = idempotencyKey ? { key: idempotencyKey, hash: requestHash(input) } : undefined;
  let row: Omit<OrderRow, "searchText"> | undefined;
  try {
    row = await bookOrder(db, booker, input, change, rules, idempotency);
  } catch (error) {
    // A product removed between book_order's read of it and its order's insert fails the order's
    // foreign key: nothing was kept, and the re-read answers 404 as for a product gone before.
    if (hasSqlState(error, NOT_BOOKED) || hasSqlState(error, FOREIGN_KEY_VIOLATION))
      return notPlaced(db, booker, input, rules);
    if (hasSqlState(error, ARCHIVED)) throw archived();
    if (hasSqlState(error, OVER_LIMIT)) throw overLimit(error, rules);
    if (hasSqlState(error, CODE_REFUSED)) throw codeRefused(error);
    if (hasSqlState(error, OVER_TOTAL)) throw badRequest(orderTotalTooLarge());
    throw error;
  }
  if (row) return { order: toOrder(row), replayed: false };
  // No row and no refusal: book_order found this key taken, which only a keyed request can meet.
  if (!idempotency) throw new Error("book_order answered no order for a booking without a key");
  const [previous] = await db
    .select({ requestHash: idempotencyKeys.requestHash, order: orders })
    .from(idempotencyKeys)
    .leftJoin(orders, eq(orders.id, idempotencyKeys.orderId))
    .where(and(eq(idempotencyKeys.userId, booker.user.id), eq(idempotencyKeys.key, idempotency.key)));
  if (previous?.requestHash !== idempotency.hash) throw unprocessable(orderMessages.idempotencyMismatch);
  if (!previous.order) throw notFound(orderMessages.notFound);
  return { order: toOrder(previous.order), replayed: true };
}

/** An order the user may see: their own, or any for an admin; another customer's is "not found". */
export async function getVisibleOrder(db: Db, user: SessionUser, id: string): Promise<Order> {
  const [row] = await db.select().from(orders).where(eq(orders.id, id));
  if (!row || (user.role !== "admin" && row.userId !== user.id)) throw notFound(orderMessages.notFound);
  return toOrder(row);
}

/**
 * Removes an unpaid order and returns its units to the stock, in one transaction (the lifecycle's
 * pending -> removed). The caller then cancels its payment intents (IntentCanceller).
 */
export async function removeOrder(
  db: Db,
  user: SessionUser,
  id: string,
  change: CatalogChange,
  actor?: Actor,
): Promise<void> {
  return db.transaction(async (tx) => {
    // The ledger's cause first, before any lock is taken: a round trip between the order's lock
    // and the product's would hold the one longer while waiting for the other.
    await stockCause(tx, { reason: "removal", orderId: id, adminId: user.role === "admin" ? user.id : null });
    const owner = user.role === "admin" ? undefined : eq(orders.userId, user.id);
    const [removed] = await tx
      .delete(orders)
      .where(and(eq(orders.id, id), movableBy("remove"), owner))
      .returning({
        productId: orders.productId,
        quantity: orders.quantity,
        status: orders.status,
        userId: orders.userId,
      });
    if (!removed) {
      const [row] = await tx
        .select({ status: orders.status })
        .from(orders)
        .where(and(eq(orders.id, id), owner));
      if (!row) throw notFound(orderMessages.notFound);
      const v = verdict(row.status, "remove");
      throw v.kind === "refused" ? v.problem : notFound(orderMessages.notFound);
    }
    countOrders("removed");
    // A customer removing their own unpaid order is no admin action; an admin removing one is.
    if (actor && user.role === "admin") {
      await recordActivity(tx, actor, {
        action: "order.removed",
        targetType: "order",
        targetId: id,
        changes: {
          status: [removed.status, null],
          quantity: [removed.quantity, null],
          userId: [removed.userId, null],
        },
      });
    }
    const { productId, quantity } = removed;
    if (productId) await returnToStock(tx, { productId, quantity }, change);
  });
}

/**
 * Marks a paid order shipped (paid -> shipped), with its carrier and tracking number when given.
 * Shipping again answers the same order, so a double click or a retry is harmless, unless it names
 * another carrier or tracking number (409: the order has already shipped).
 */
export async function shipOrder(
  db: Db,
  id: string,
  input: ShipOrderInput = {},
  actor?: Actor,
): Promise<Order> {
  const carrier = input.carrier || null;
  const trackingNumber = input.trackingNumber || null;
  // The update and its activity entry commit together.
  const shipped = await db.transaction(async (tx) => {
    const [row] = await tx
      .update(orders)
      .set({ status: nextStatus("ship"), shippedAt: new Date(), carrier, trackingNumber })
      .where(and(eq(orders.id, id), movableBy("ship")))
      .returning();
    if (row && actor) {
      await recordActivity(tx, actor, {
        action: "order.shipped",
        targetType: "order",
        targetId: id,
        changes: {
          status: ["paid", row.status],
          carrier: [null, carrier],
          trackingNumber: [null, trackingNumber],
        },
      });
    }
    return row;
  });
  if (shipped) {
    countOrders("shipped");
    return toOrder(shipped);
  }
  const [row] = await db.select().from(orders).where(eq(orders.id, id));
  if (!row) throw notFound(orderMessages.notFound);
  const v = verdict(row.status, "ship");
  if (v.kind === "refused") throw v.problem;
  const sameDetails =
    (input.carrier === undefined || carrier === row.carrier) &&
    (input.trackingNumber === undefined || trackingNumber === row.trackingNumber);
  if (!sameDetails) throw conflict(orderMessages.lifecycle.alreadyShipped);
  return toOrder(row);
}
