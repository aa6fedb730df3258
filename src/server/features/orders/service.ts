import { createHash } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { MAX_ORDER_TOTAL } from "../../../shared/constants.js";
import { orderMessages } from "../../../shared/messages/orders.js";
import {
  type Order,
  type OrderInput,
  orderTotalTooLarge,
  type ShipOrderInput,
  withinOrderTotal,
} from "../../../shared/orders.js";
import type { Db } from "../../db/client.js";
import { idempotencyKeys, orders, products } from "../../db/schema/index.js";
import { countOrders } from "../../lib/metrics.js";
import { badRequest, conflict, notFound, unprocessable } from "../../lib/problem.js";
import type { SessionUser } from "../../plugins/session.js";
import type { CatalogChange } from "../catalog/index.js";
import { movableBy, nextStatus, verdict } from "./lifecycle.js";

/** What one customer's unpaid orders may hold, and how long an order holds its units (config.orders). */
export interface BookingRules {
  holdSeconds: number;
  maxUnpaid: number;
  maxUnpaidUnits: number;
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
  };
}

function requestHash(input: OrderInput): string {
  const canonical = JSON.stringify([
    input.productId,
    input.quantity,
    input.address,
    input.phone,
    input.img ?? null,
  ]);
  return createHash("sha256").update(canonical).digest("hex");
}

export interface Placed {
  order: Order;
  replayed: boolean;
}

type Queryable = Db | Parameters<Parameters<Db["transaction"]>[0]>[0];

/**
 * Takes the stock and writes the order in one statement: the UPDATE takes the units only while
 * enough are left, and the INSERT reads the row it returned, so concurrent buyers can never take
 * more than there is. Holding the product's row lock for one statement, with no round trip to the
 * app before the commit, is what lets many orders for one product go through each second.
 * Undefined when the stock was short or the product is gone.
 */
async function takeStockAndInsert(
  db: Queryable,
  user: SessionUser,
  input: OrderInput,
  change: CatalogChange,
  rules: BookingRules,
): Promise<OrderRow | undefined> {
  const quantity = input.quantity;
  const held = heldBy(user.id);
  const taken = db.$with("taken").as(
    db
      .update(products)
      .set({ quantity: sql`${products.quantity} - ${quantity}`, updatedAt: new Date() })
      .where(
        and(
          eq(products.id, input.productId),
          sql`${products.quantity} >= ${quantity}`,
          // In 64 bits, so no product of price and quantity overflows before it is compared.
          sql`${products.price}::bigint * ${quantity}::bigint <= ${MAX_ORDER_TOTAL}`,
          // The cap: read after the customer's booking lock (lockBookings), so it counts every
          // booking of theirs that committed before this one.
          sql`(select count(*) from ${held}) < ${rules.maxUnpaid}`,
          sql`(select coalesce(sum(quantity), 0) from ${held}) + ${quantity} <= ${rules.maxUnpaidUnits}`,
        ),
      )
      .returning({
        productId: products.id,
        productName: products.name,
        unitPrice: products.price,
        image: products.image,
        // The stock shown by every instance's catalog cache changes when this commits.
        notified: change(input.productId),
      }),
  );
  const param = <T>(value: T, column: string) => sql<T>`${value}`.as(column);
  const [row] = await db
    .with(taken)
    .insert(orders)
    .select((qb) =>
      // INSERT … SELECT names every column but the generated search text, in the table's order
      // (as SQL: Drizzle's own check of the names would want the generated column too).
      qb
        .select({
          id: sql<string>`gen_random_uuid()`.as("id"),
          userId: param(user.id, "user_id"),
          productId: taken.productId,
          productName: taken.productName,
          img: sql<string>`coalesce(${input.img ?? null}, ${taken.image})`.as("img"),
          name: param(user.name, "name"),
          email: param(user.email, "email"),
          address: param(input.address, "address"),
          phone: param(input.phone, "phone"),
          quantity: sql<number>`${quantity}::integer`.as("quantity"),
          unitPrice: taken.unitPrice,
          totalPrice: sql<number>`${taken.unitPrice} * ${quantity}::integer`.as("total_price"),
          status: sql<"pending">`'pending'::order_status`.as("status"),
          transactionId: sql<null>`null`.as("transaction_id"),
          paidAt: sql<null>`null`.as("paid_at"),
          shippedAt: sql<null>`null`.as("shipped_at"),
          expiresAt: sql<Date>`now() + make_interval(secs => ${rules.holdSeconds})`.as("expires_at"),
          expiredAt: sql<null>`null`.as("expired_at"),
          refundedAt: sql<null>`null`.as("refunded_at"),
          carrier: sql<null>`null`.as("carrier"),
          trackingNumber: sql<null>`null`.as("tracking_number"),
          createdAt: sql<Date>`now()`.as("created_at"),
        })
        .from(taken)
        .getSQL(),
    )
    .returning();
  if (row) countOrders("placed");
  return row;
}

/**
 * A customer's unpaid orders that still hold units, as a subquery (order_user_pending_idx). An
 * order whose hold ran out, waiting for the expiry job, no longer counts.
 */
const heldBy = (userId: string) =>
  sql`(select quantity from ${orders} where ${orders.userId} = ${userId} and ${orders.status} = 'pending' and ${orders.expiresAt} > now()) as held`;

/**
 * Serialises one customer's bookings (a transaction-level advisory lock on their id), so that the
 * cap read by the next statement cannot be passed by two bookings at once. Other customers' bookings
 * never wait on it.
 */
async function lockBookings(tx: Queryable, userId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`order-booking:${userId}`}))`);
}

/**
 * Why no stock was taken: 404 once the product is gone, 400 when the order would total more than
 * one payment can take, 409 when the customer holds too much unpaid already (the cap), otherwise
 * 409 (out of stock).
 */
async function notPlaced(
  db: Queryable,
  user: SessionUser,
  input: OrderInput,
  rules: BookingRules,
): Promise<never> {
  const [product] = await db
    .select({ price: products.price })
    .from(products)
    .where(eq(products.id, input.productId));
  if (!product) throw notFound(orderMessages.productMissing);
  if (!withinOrderTotal(product.price, input.quantity)) throw badRequest(orderTotalTooLarge());
  const held = await db.execute<{ orders: number; units: number }>(
    sql`select count(*)::int as orders, coalesce(sum(quantity), 0)::int as units from ${heldBy(user.id)}`,
  );
  const { orders: count = 0, units = 0 } = held.rows[0] ?? {};
  if (count >= rules.maxUnpaid) throw conflict(orderMessages.lifecycle.tooManyUnpaid(rules.maxUnpaid));
  if (units + input.quantity > rules.maxUnpaidUnits) {
    throw conflict(
      orderMessages.lifecycle.tooManyUnits(
        rules.maxUnpaidUnits.toLocaleString("en-US"),
        units.toLocaleString("en-US"),
      ),
    );
  }
  throw conflict(orderMessages.outOfStock);
}

/**
 * Books an order (see takeStockAndInsert) in one transaction: the customer's booking lock, then the
 * statement that checks the cap, takes the stock and writes the order with its hold's end. With an
 * Idempotency-Key, the key is claimed first, and a retry with the same key gets the first order
 * back instead of a second one.
 */
export async function placeOrder(
  db: Db,
  user: SessionUser,
  input: OrderInput,
  change: CatalogChange,
  rules: BookingRules,
  idempotencyKey?: string,
): Promise<Placed> {
  if (!idempotencyKey) {
    return db.transaction(async (tx) => {
      await lockBookings(tx, user.id);
      const row = await takeStockAndInsert(tx, user, input, change, rules);
      if (!row) return notPlaced(tx, user, input, rules);
      return { order: toOrder(row), replayed: false };
    });
  }
  const hash = requestHash(input);
  return db.transaction(async (tx) => {
    // Concurrent requests with the same key wait here for the first one to commit or roll back.
    const [claimed] = await tx
      .insert(idempotencyKeys)
      .values({ userId: user.id, key: idempotencyKey, requestHash: hash })
      .onConflictDoNothing()
      .returning({ key: idempotencyKeys.key });
    if (!claimed) {
      const [previous] = await tx
        .select({ requestHash: idempotencyKeys.requestHash, order: orders })
        .from(idempotencyKeys)
        .leftJoin(orders, eq(orders.id, idempotencyKeys.orderId))
        .where(and(eq(idempotencyKeys.userId, user.id), eq(idempotencyKeys.key, idempotencyKey)));
      if (previous?.requestHash !== hash) throw unprocessable(orderMessages.idempotencyMismatch);
      if (!previous.order) throw notFound(orderMessages.notFound);
      return { order: toOrder(previous.order), replayed: true };
    }
    await lockBookings(tx, user.id);
    const row = await takeStockAndInsert(tx, user, input, change, rules);
    if (!row) return notPlaced(tx, user, input, rules);
    await tx
      .update(idempotencyKeys)
      .set({ orderId: row.id })
      .where(and(eq(idempotencyKeys.userId, user.id), eq(idempotencyKeys.key, idempotencyKey)));
    return { order: toOrder(row), replayed: false };
  });
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
): Promise<void> {
  return db.transaction(async (tx) => {
    const owner = user.role === "admin" ? undefined : eq(orders.userId, user.id);
    const [removed] = await tx
      .delete(orders)
      .where(and(eq(orders.id, id), movableBy("remove"), owner))
      .returning({ productId: orders.productId, quantity: orders.quantity });
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
    if (!removed.productId) return;
    await tx
      .update(products)
      .set({ quantity: sql`${products.quantity} + ${removed.quantity}`, updatedAt: new Date() })
      .where(eq(products.id, removed.productId))
      .returning({ notified: change(removed.productId) });
  });
}

/**
 * Marks a paid order shipped (paid -> shipped), with its carrier and tracking number when given.
 * Shipping again answers the same order, so a double click or a retry is harmless, unless it names
 * another carrier or tracking number (409: the order has already shipped).
 */
export async function shipOrder(db: Db, id: string, input: ShipOrderInput = {}): Promise<Order> {
  const carrier = input.carrier || null;
  const trackingNumber = input.trackingNumber || null;
  const [shipped] = await db
    .update(orders)
    .set({ status: nextStatus("ship"), shippedAt: new Date(), carrier, trackingNumber })
    .where(and(eq(orders.id, id), movableBy("ship")))
    .returning();
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
