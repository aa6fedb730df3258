import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { expect } from "vitest";
import { orderMessages } from "../../../shared/messages/orders.js";
import type { Db } from "../../db/client.js";
import { products } from "../../db/schema/index.js";
import { stockedProduct } from "../products.js";
import { FIGURES } from "./figures.js";
import type { Customer, HttpReply, ShopClient } from "./shop-client.js";
import { productLedger } from "./stock.js";

export const UNITS_PER_ORDER = 10;
/** How often one buyer asks again after 503 + Retry-After before the round counts a failure. */
const MAX_ATTEMPTS = 10;

interface RoundFigures {
  round: number;
  buyers: number;
  created: number;
  outOfStock409: number;
  serverErrors5xx: number;
  /** Any other status, a 409 that is not a clean out-of-stock problem, or a failed connection. */
  unexpected: number;
  /** What the unexpected answers were (status and detail, or the failure), the first few: a failed round names them. */
  unexpectedAnswers: string[];
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

/** A 409 problem+json that says out of stock, and nothing else. */
export const isCleanOutOfStock = (reply: HttpReply) =>
  reply.status === 409 &&
  String(reply.headers["content-type"]).startsWith("application/problem+json") &&
  reply.json<{ detail?: string }>().detail === orderMessages.outOfStock;

/**
 * Every buyer orders UNITS_PER_ORDER of one fresh product at the same moment, each through the
 * client beside it (one shop, or several sharing a database), while the stock is watched.
 */
async function oversellRound(
  db: Db,
  round: number,
  buyers: { customer: Customer; client: ShopClient }[],
  ordersInStock: number,
): Promise<RoundFigures> {
  const productId = await stockedProduct(db, ordersInStock * UNITS_PER_ORDER);
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
  const failures: string[] = [];
  const replies = await Promise.all(
    buyers.map((buyer) =>
      buy(buyer).catch((error: unknown) => {
        failures.push(`no answer: ${error instanceof Error ? error.message : String(error)}`);
        return undefined;
      }),
    ),
  );
  const ms = Math.round(performance.now() - started);
  buying = false;
  await watcher;

  const after = await productLedger(db, productId);
  const created = replies.filter((r) => r?.status === 201).length;
  const outOfStock409 = replies.filter((r) => r && isCleanOutOfStock(r)).length;
  const serverErrors5xx = replies.filter((r) => r && r.status >= 500).length;
  const stockAfter = after.stock;
  return {
    round,
    buyers: buyers.length,
    created,
    outOfStock409,
    serverErrors5xx,
    overloaded503,
    unexpected: buyers.length - created - outOfStock409 - serverErrors5xx,
    unexpectedAnswers: [
      ...failures,
      ...replies
        .filter((r) => r && r.status !== 201 && r.status < 500 && !isCleanOutOfStock(r))
        .map((r) => `${r?.status} ${r?.text.slice(0, 300)}`),
    ].slice(0, 5),
    stockAfter,
    lowestStockSeen: Math.min(lowestStockSeen, stockAfter),
    ordersInDatabase: after.orders.size,
    unitsInDatabase: after.orderedUnits,
    ms,
    slowestMs: Math.round(Math.max(...replies.map((r) => r?.ms ?? 0))),
  };
}

/**
 * `rounds` rounds of FIGURES.buyers buyers after FIGURES.stockInOrders orders' worth of stock, each
 * buyer through the client beside it. Stops at the first round that sells other than exactly the
 * stock, refusing the rest with a clean 409, with that round's figures in the message; otherwise
 * returns the figures of the run, for recordResults.
 */
export async function sellOutRounds(
  db: Db,
  rounds: number,
  buyers: { customer: Customer; client: ShopClient }[],
): Promise<Record<string, unknown>> {
  expect(buyers.length, "buyers per round").toBe(FIGURES.buyers);
  const done: RoundFigures[] = [];
  for (let round = 1; round <= rounds; round += 1) {
    const figures = await oversellRound(db, round, buyers, FIGURES.stockInOrders);
    done.push(figures);
    expect(figures, `round ${round}`).toMatchObject({
      created: FIGURES.stockInOrders,
      outOfStock409: FIGURES.buyers - FIGURES.stockInOrders,
      serverErrors5xx: 0,
      unexpected: 0,
      stockAfter: 0,
      ordersInDatabase: FIGURES.stockInOrders,
      unitsInDatabase: FIGURES.stockInOrders * UNITS_PER_ORDER,
    });
    expect(figures.lowestStockSeen).toBeGreaterThanOrEqual(0);
  }
  return {
    buyersPerRound: FIGURES.buyers,
    stockInOrders: FIGURES.stockInOrders,
    rounds: done.length,
    ordersPerRound: done.map((r) => r.created),
    conflicts409PerRound: done.map((r) => r.outOfStock409),
    serverErrors5xx: done.reduce((sum, r) => sum + r.serverErrors5xx, 0),
    overloaded503Retried: done.reduce((sum, r) => sum + r.overloaded503, 0),
    unexpected: done.reduce((sum, r) => sum + r.unexpected, 0),
    lowestStockSeen: Math.min(...done.map((r) => r.lowestStockSeen)),
    roundMs: done.map((r) => r.ms),
    slowestAnswerMs: Math.max(...done.map((r) => r.slowestMs)),
  };
}
