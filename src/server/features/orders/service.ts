import { createHash } from "node:crypto";
import { and, desc, eq, sql } from "drizzle-orm";
import { messages } from "../../../shared/messages.js";
import type { Order, OrderInput } from "../../../shared/orders.js";
import type { Db } from "../../db/client.js";
import { idempotencyKeys, orders, products } from "../../db/schema/index.js";
import { conflict, notFound, unprocessable } from "../../lib/problem.js";
import type { SessionUser } from "../../plugins/auth.js";

type OrderRow = typeof orders.$inferSelect;

export function toOrder(row: OrderRow): Order {
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
    paid: row.status !== "pending",
    status: row.status,
    transactionId: row.transactionId,
    createdAt: row.createdAt.toISOString(),
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

/**
 * Books an order. The stock is taken by a conditional UPDATE in the same transaction that writes
 * the order, so concurrent buyers can never take more than there is. With an Idempotency-Key the
 * first order is returned again instead of a second one being made.
 */
export async function placeOrder(
  db: Db,
  user: SessionUser,
  input: OrderInput,
  idempotencyKey?: string,
): Promise<Placed> {
  const hash = idempotencyKey ? requestHash(input) : "";
  return db.transaction(async (tx) => {
    if (idempotencyKey) {
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
        if (previous?.requestHash !== hash) throw unprocessable(messages.order.idempotencyMismatch);
        if (!previous.order) throw notFound(messages.order.notFound);
        return { order: toOrder(previous.order), replayed: true };
      }
    }
    const [product] = await tx
      .update(products)
      .set({ quantity: sql`${products.quantity} - ${input.quantity}`, updatedAt: new Date() })
      .where(and(eq(products.id, input.productId), sql`${products.quantity} >= ${input.quantity}`))
      .returning({ name: products.name, price: products.price, image: products.image });
    if (!product) {
      const [exists] = await tx
        .select({ id: products.id })
        .from(products)
        .where(eq(products.id, input.productId));
      throw exists ? conflict(messages.order.outOfStock) : notFound(messages.order.productMissing);
    }
    const [row] = await tx
      .insert(orders)
      .values({
        userId: user.id,
        productId: input.productId,
        productName: product.name,
        img: input.img ?? product.image,
        name: user.name,
        email: user.email,
        address: input.address,
        phone: input.phone,
        quantity: input.quantity,
        unitPrice: product.price,
        totalPrice: product.price * input.quantity,
      })
      .returning();
    if (!row) throw new Error("order insert returned nothing");
    if (idempotencyKey) {
      await tx
        .update(idempotencyKeys)
        .set({ orderId: row.id })
        .where(and(eq(idempotencyKeys.userId, user.id), eq(idempotencyKeys.key, idempotencyKey)));
    }
    return { order: toOrder(row), replayed: false };
  });
}

export async function listOrdersOf(db: Db, userId: string): Promise<Order[]> {
  const rows = await db
    .select()
    .from(orders)
    .where(eq(orders.userId, userId))
    .orderBy(desc(orders.createdAt));
  return rows.map(toOrder);
}

export async function listAllOrders(db: Db): Promise<Order[]> {
  const rows = await db.select().from(orders).orderBy(desc(orders.createdAt));
  return rows.map(toOrder);
}

/** An order the user may see: their own, or any for an admin; another customer's is "not found". */
export async function getVisibleOrder(db: Db, user: SessionUser, id: string): Promise<Order> {
  const [row] = await db.select().from(orders).where(eq(orders.id, id));
  if (!row || (user.role !== "admin" && row.userId !== user.id)) throw notFound(messages.order.notFound);
  return toOrder(row);
}

/** Removes an unpaid order and returns its units to the stock, in one transaction. */
export async function removeOrder(db: Db, user: SessionUser, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    const owner = user.role === "admin" ? undefined : eq(orders.userId, user.id);
    const [removed] = await tx
      .delete(orders)
      .where(and(eq(orders.id, id), eq(orders.status, "pending"), owner))
      .returning({ productId: orders.productId, quantity: orders.quantity });
    if (!removed) {
      const [row] = await tx
        .select({ status: orders.status })
        .from(orders)
        .where(and(eq(orders.id, id), owner));
      throw row ? conflict(messages.order.alreadyPaid) : notFound(messages.order.notFound);
    }
    if (removed.productId) {
      await tx
        .update(products)
        .set({ quantity: sql`${products.quantity} + ${removed.quantity}`, updatedAt: new Date() })
        .where(eq(products.id, removed.productId));
    }
  });
}

/**
 * Marks a paid order shipped. Shipping again answers the same order, so a double click or a retry
 * is harmless; an unpaid order cannot ship.
 */
export async function shipOrder(db: Db, id: string): Promise<Order> {
  const [shipped] = await db
    .update(orders)
    .set({ status: "shipped", shippedAt: new Date() })
    .where(and(eq(orders.id, id), eq(orders.status, "paid")))
    .returning();
  if (shipped) return toOrder(shipped);
  const [row] = await db.select().from(orders).where(eq(orders.id, id));
  if (!row) throw notFound(messages.order.notFound);
  if (row.status === "pending") throw conflict(messages.order.notPaid);
  return toOrder(row);
}
