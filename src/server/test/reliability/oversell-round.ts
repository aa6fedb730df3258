import { randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { orderMessages } from "../../../shared/messages/orders.js";
import type { Db } from "../../db/client.js";
import { orders, products } from "../../db/schema/index.js";
import type { Customer, HttpReply, ShopClient } from "./shop-client.js";

export const UNITS_PER_ORDER = 10;
/** How often one buyer asks again after 503 + Retry-After before the round counts a failure. */
const MAX_ATTEMPTS = 10;

export interface RoundFigures {
  round: number;
  buyers: number;
  created: number;
  outOfStock409: number;
  serverErrors5xx: number;
  /** Any other status, a 409 that is not a clean out-of-stock problem, or a failed connection. */
  unexpected: number;
  stockAfter: number;
  lowestStockSeen: number;
  ordersInDatabase: number;
  unitsInDatabase: number;
  /**
   * 503s with Retry-After (an overloaded machine): the buyer waited as told and asked again with
   * the same Idempotency-Key, so each buyer still ends with one real answer. Any other 5xx counts
   * in serverErrors5xx.
   */
  overloaded503: number;
  /** The whole round, and its slowest answer. */
  ms: number;
  slowestMs: number;
}

/** A new product with `stock` units, so every round starts from fresh stock. */
export async function freshProduct(db: Db, stock: number): Promise<string> {
  const [row] = await db
    .insert(products)
    .values({
      name: `Reliability fan ${randomUUID()}`,
      description: "A fan sold to many buyers at once.",
      image: "/media/products/gale-120-high-static-pressure-fan.svg",
      price: 25,
      quantity: stock,
      category: "cooling-fans",
    })
    .returning({ id: products.id });
  if (!row) throw new Error("product insert returned nothing");
  return row.id;
}

const isCleanOutOfStock = (reply: HttpReply) =>
  reply.status === 409 &&
  String(reply.headers["content-type"]).startsWith("application/problem+json") &&
  reply.json<{ detail?: string }>().detail === orderMessages.outOfStock;

/**
 * Every buyer orders UNITS_PER_ORDER of one fresh product at the same moment, each through the
 * client beside it (one shop, or several sharing a database), while the stock is watched.
 */
export async function oversellRound(
  db: Db,
  round: number,
  buyers: { customer: Customer; client: ShopClient }[],
  ordersInStock: number,
): Promise<RoundFigures> {
  const productId = await freshProduct(db, ordersInStock * UNITS_PER_ORDER);
  let lowestStockSeen = ordersInStock * UNITS_PER_ORDER;
  let buying = true;
  const watcher = (async () => {
    while (buying) {
      const [row] = await db
        .select({ quantity: products.quantity })
        .from(products)
        .where(eq(products.id, productId));
      lowestStockSeen = Math.min(lowestStockSeen, row?.quantity ?? lowestStockSeen);
      await new Promise((r) => setTimeout(r, 5));
    }
  })();

  let overloaded503 = 0;
  /** One buyer's order; a 503 with Retry-After is asked again, as told, with the same key. */
  const buy = async ({ customer, client }: { customer: Customer; client: ShopClient }) => {
    const headers = { "idempotency-key": randomUUID() };
    for (let attempt = 1; ; attempt += 1) {
      const reply = await client.placeOrder(customer, productId, UNITS_PER_ORDER, headers);
      const retryAfter = Number(reply.headers["retry-after"]);
      if (reply.status !== 503 || !Number.isFinite(retryAfter) || attempt === MAX_ATTEMPTS) return reply;
      overloaded503 += 1;
      await new Promise((r) => setTimeout(r, retryAfter * 1_000));
    }
  };
  const started = performance.now();
  const replies = await Promise.all(buyers.map((buyer) => buy(buyer).catch(() => undefined)));
  const ms = Math.round(performance.now() - started);
  buying = false;
  await watcher;

  const [stock] = await db
    .select({ quantity: products.quantity })
    .from(products)
    .where(eq(products.id, productId));
  const [made] = await db
    .select({
      count: sql<number>`count(*)::int`,
      units: sql<number>`coalesce(sum(${orders.quantity}), 0)::int`,
    })
    .from(orders)
    .where(eq(orders.productId, productId));
  const created = replies.filter((r) => r?.status === 201).length;
  const outOfStock409 = replies.filter((r) => r && isCleanOutOfStock(r)).length;
  const serverErrors5xx = replies.filter((r) => r && r.status >= 500).length;
  const stockAfter = stock?.quantity ?? -1;
  return {
    round,
    buyers: buyers.length,
    created,
    outOfStock409,
    serverErrors5xx,
    overloaded503,
    unexpected: buyers.length - created - outOfStock409 - serverErrors5xx,
    stockAfter,
    lowestStockSeen: Math.min(lowestStockSeen, stockAfter),
    ordersInDatabase: made?.count ?? 0,
    unitsInDatabase: made?.units ?? 0,
    ms,
    slowestMs: Math.round(Math.max(...replies.map((r) => r?.ms ?? 0))),
  };
}
