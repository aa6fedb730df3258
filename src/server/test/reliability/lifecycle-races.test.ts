import { inArray, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Order, OrderStatus } from "../../../shared/orders.js";
import type { PaymentIntent } from "../../../shared/payments.js";
import { buildApp } from "../../app.js";
import { createDatabase, type Database, type Db } from "../../db/client.js";
import {
  orderIntents,
  orders,
  payments,
  products,
  refunds,
  sandboxIntents,
  stockMovements,
} from "../../db/schema/index.js";
import { createTestDatabase, testConfig } from "../app.js";
import { post, stripeEnv, webhook } from "../payments.js";
import { insertProduct } from "../products.js";
import { type StripeStandIn, startStripeStandIn } from "../stripe-stand-in.js";
import { fromShop, signUp, signUpAdmin, type TestUser } from "../users.js";
import { FIGURES, recordResults, seededRandom } from "./figures.js";

// The order lifecycle under concurrency (README.md, Guarantees; issue 17): expiry racing payments,
// removal racing payment, admin refunds racing refund webhooks, and two instances expiring at once.
// Each scenario runs on two shop instances on one database (two apps, two pools, two expiry jobs),
// with the Stripe stand-in or the sandbox, over rounds of many orders. After each round, once the
// background work has settled, the database and the provider are checked against the invariants
// (see `violations`). A trigger on the test database logs every status change of an order, with the
// instance that made it, so that "exactly one legal path" and "expired once, by one instance" are
// read rather than inferred. The random timings of a run are replayed with RELIABILITY_SEED.
// Admins adjust the product's stock on both instances through every round (issue 31), and the
// stock ledger is checked with the rest: the stock is the sum of its movements, each order booked
// once and given back at most once, by its own reason (features/stock).

const STOCK = 100_000;
/** The smallest order the shop takes (orderInputSchema). */
const UNITS = 10;
const PRICE = 7;
const LONG_HOLD = { ORDER_HOLD_HOURS: "1" };
/** Two seconds: booking and the payment page's intent fit well inside, and the race is at its end. */
const SHORT_HOLD = { ORDER_HOLD_HOURS: String(2 / 3600) };
const CARD = {
  number: "4242424242424242",
  expMonth: 12,
  expYear: new Date().getUTCFullYear() + 3,
  cvc: "123",
};
const LEGAL_MOVES = new Set([
  "pending>paid",
  "pending>expired",
  "pending>removed",
  "paid>shipped",
  "paid>refunded",
]);
type State = OrderStatus | "removed";

const random = seededRandom();
const chance = () => random.next();
const pick = <T>(items: readonly T[]): T => items[Math.floor(chance() * items.length)] as T;
/** Waits until a moment of the schedule (a stimulus's time, not a wait for a result). */
const at = (moment: number) => new Promise((r) => setTimeout(r, Math.max(0, moment - Date.now())));

let standIn: StripeStandIn;
beforeAll(async () => {
  standIn = await startStripeStandIn();
});
afterAll(async () => {
  await standIn?.close();
});

interface Instance {
  name: string;
  app: FastifyInstance;
  database: Database;
}

/** Two instances of one shop on one fresh database, the checker's own pool, customers and an admin. */
interface Pair {
  provider: "stripe" | "sandbox";
  instances: Instance[];
  db: Db;
  customers: TestUser[];
  admin: TestUser;
  close(): Promise<void>;
}

/** Logs each order's status changes (and its removal) with the instance (application_name) that made it. */
const TRANSITION_LOG = sql`
  create table test_transition (
    id bigserial primary key, order_id uuid not null, from_state text not null, to_state text not null,
    instance text not null
  );
  create function test_log_transition() returns trigger language plpgsql as $$
  begin
    if tg_op = 'DELETE' then
      insert into test_transition (order_id, from_state, to_state, instance)
      values (old.id, old.status, 'removed', current_setting('application_name'));
    elsif new.status is distinct from old.status then
      insert into test_transition (order_id, from_state, to_state, instance)
      values (new.id, old.status, new.status, current_setting('application_name'));
    end if;
    return null;
  end $$;
  create trigger test_log_transition after update or delete on "order"
    for each row execute function test_log_transition();`;

async function startPair(provider: Pair["provider"], hold: Record<string, string>): Promise<Pair> {
  const testDb = await createTestDatabase();
  const checker = createDatabase(testDb.url, { max: 3 });
  await checker.db.execute(TRANSITION_LOG);
  const env = {
    ...hold,
    ORDER_EXPIRY_INTERVAL_SECONDS: "0.05",
    ...(provider === "stripe" ? stripeEnv(standIn) : {}),
  };
  const instances: Instance[] = [];
  const close = async () => {
    for (const instance of instances) {
      await instance.app.close();
      await instance.database.close();
    }
    await checker.close();
    await testDb.drop();
  };
  try {
    for (const name of ["shop-a", "shop-b"]) {
      const url = new URL(testDb.url);
      url.searchParams.set("application_name", name);
      const database = createDatabase(url.toString(), { max: 6 });
      const app = await buildApp(testConfig(env), database, {
        logger: { level: "warn" },
        rateLimit: { max: 100_000, windowSeconds: 60 },
      });
      instances.push({ name, app, database });
      await app.ready();
    }
    const first = instances[0] as Instance;
    const customers = [];
    for (let i = 0; i < 4; i += 1) customers.push(await signUp(first.app, { name: `Racer ${i}` }));
    const admin = await signUpAdmin(first.app);
    return { provider, instances, db: checker.db, customers, admin, close };
  } catch (error) {
    await close();
    throw error;
  }
}

async function withPair<T>(
  provider: Pair["provider"],
  hold: Record<string, string>,
  work: (pair: Pair) => Promise<T>,
) {
  const pair = await startPair(provider, hold);
  try {
    return await work(pair);
  } finally {
    await pair.close();
  }
}

const anyInstance = (pair: Pair) => pick(pair.instances);

/** Every answer of a round by what was asked, to count branches and to find any 5xx. */
class Answers {
  readonly codes: Record<string, Record<number, number>> = {};
  /** Work of the round besides its orders (the admins' adjustments), awaited before the check. */
  readonly beside: Promise<unknown>[] = [];
  add(what: string, code: number) {
    const byCode = this.codes[what] ?? {};
    this.codes[what] = byCode;
    byCode[code] = (byCode[code] ?? 0) + 1;
    return code;
  }
  serverErrors() {
    return Object.entries(this.codes).flatMap(([what, byCode]) =>
      Object.entries(byCode)
        .filter(([code]) => Number(code) >= 500)
        .map(([code, n]) => `${what}: ${n} × ${code}`),
    );
  }
}

function newProduct(pair: Pair): Promise<string> {
  return insertProduct(pair.db, {
    name: `Lifecycle race ${Math.random()}`,
    image: "/media/products/x.svg",
    price: PRICE,
    quantity: STOCK,
    category: "keyboards",
  });
}

async function book(pair: Pair, customer: TestUser, productId: string, quantity: number): Promise<Order> {
  const res = await post(anyInstance(pair), customer, "/api/orders", {
    productId,
    quantity,
    address: "1 Race Road, Austin",
    phone: "5550123",
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

/** The payment page's intent: its id (as the provider names it), or null when the shop refused it. */
async function openIntent(pair: Pair, customer: TestUser, order: Order, answers: Answers) {
  const res = await post(anyInstance(pair), customer, `/api/orders/${order.id}/payment-intent`);
  answers.add("payment-intent", res.statusCode);
  if (res.statusCode !== 200) return null;
  const { clientSecret }: PaymentIntent = res.json();
  // Both providers make client secrets as `<intent id>_secret_<token>`.
  return { id: clientSecret.slice(0, clientSecret.indexOf("_secret_")), clientSecret };
}

/**
 * Order `i` of a round: booked by the customers in turn, 1 to 5 times UNITS, with its payment
 * page's intent (null when the shop refused it).
 */
async function bookedWithIntent(pair: Pair, productId: string, i: number, answers: Answers) {
  const customer = pair.customers[i % pair.customers.length] as TestUser;
  const order = await book(pair, customer, productId, UNITS * (1 + (i % 5)));
  return { customer, order, intent: await openIntent(pair, customer, order, answers) };
}

type Booked = {
  customer: TestUser;
  order: Order;
  intent: NonNullable<Awaited<ReturnType<typeof openIntent>>>;
};

/**
 * The round's FIGURES.lifecycleOrders orders, booked at once, each with its intent (or the test
 * fails), and played by `play` as soon as it is booked; the orders.
 */
function racedOrders(
  pair: Pair,
  productId: string,
  answers: Answers,
  play: (booked: Booked, i: number) => Promise<Order>,
): Promise<Order[]> {
  return Promise.all(
    Array.from({ length: FIGURES.lifecycleOrders }, async (_, i) => {
      const { customer, order, intent } = await bookedWithIntent(pair, productId, i, answers);
      if (!intent) throw new Error(`no intent for ${order.id}`);
      return play({ customer, order, intent }, i);
    }),
  );
}

/** The customer's card is accepted by the provider (Stripe.js, or the sandbox's form); false if refused. */
async function charge(
  pair: Pair,
  customer: TestUser,
  intent: { id: string; clientSecret: string },
  answers: Answers,
) {
  if (pair.provider === "stripe") {
    try {
      standIn.succeed(intent.id);
      answers.add("card", 200);
      return true;
    } catch {
      // Stripe.js cannot confirm an intent the shop cancelled.
      answers.add("card", 409);
      return false;
    }
  }
  const res = await post(anyInstance(pair), customer, "/api/payments/sandbox/confirm", {
    clientSecret: intent.clientSecret,
    card: CARD,
    billing: { name: "Racer", email: customer.email },
  });
  return answers.add("card", res.statusCode) === 200;
}

/** One webhook event delivered once, or twice at once to both instances (Stripe retries). */
async function deliver(pair: Pair, payload: string, answers: Answers) {
  const times = chance() < 0.3 ? pair.instances : [anyInstance(pair)];
  const replies = await Promise.all(times.map((instance) => webhook(instance, payload)));
  for (const reply of replies) answers.add("webhook", reply.statusCode);
}

/** The success reported to the shop: /pay from the tab, Stripe's webhook, or both at once. */
async function report(pair: Pair, customer: TestUser, order: Order, intentId: string, answers: Answers) {
  const pay = async () => {
    const res = await post(anyInstance(pair), customer, `/api/orders/${order.id}/pay`, {
      transactionId: intentId,
    });
    answers.add("pay", res.statusCode);
  };
  if (pair.provider === "sandbox") return pay();
  const hook = () => deliver(pair, standIn.eventPayload("payment_intent.succeeded", intentId), answers);
  const how = pick(["pay", "webhook", "both"] as const);
  if (how === "pay") return pay();
  if (how === "webhook") return hook();
  await Promise.all([pay(), hook()]);
}

interface ProviderIntentView {
  id: string;
  orderId: string;
  amount: number;
  status: string;
  refunds: { id: string; amount: number }[];
}

/** The provider's own records of the orders' intents and their refunds. */
async function providerIntents(pair: Pair, orderIds: string[]): Promise<ProviderIntentView[]> {
  if (pair.provider === "stripe") {
    const ids = new Set(orderIds);
    const all = [...standIn.refunds.values()];
    return [...standIn.intents.values()]
      .filter((i) => ids.has(i.metadata.orderId ?? ""))
      .map((i) => ({
        id: i.id,
        orderId: i.metadata.orderId ?? "",
        amount: i.amount,
        status: i.status,
        refunds: all.filter((r) => r.payment_intent === i.id).map((r) => ({ id: r.id, amount: r.amount })),
      }));
  }
  const rows = await pair.db.select().from(sandboxIntents).where(inArray(sandboxIntents.orderId, orderIds));
  return rows.map((r) => ({
    id: r.id,
    orderId: r.orderId,
    amount: r.amount,
    status: r.status,
    refunds: r.refundId ? [{ id: r.refundId, amount: r.amount }] : [],
  }));
}

interface Round {
  productId: string;
  orderIds: string[];
}

/** What the database and the provider hold of a round's orders. */
async function ledger(pair: Pair, round: Round) {
  const ids = round.orderIds;
  const [rows, [product], paid, recorded, transitions, atProvider, movements] = await Promise.all([
    pair.db.select().from(orders).where(inArray(orders.id, ids)),
    pair.db
      .select({ stock: products.quantity })
      .from(products)
      .where(sql`${products.id} = ${round.productId}`),
    pair.db.select().from(payments).where(inArray(payments.orderId, ids)),
    pair.db.select().from(orderIntents).where(inArray(orderIntents.orderId, ids)),
    pair.db.execute<{ order_id: string; from_state: string; to_state: string; instance: string }>(
      sql`select order_id, from_state, to_state, instance from test_transition
          where order_id = any(${sql.param(ids)}::uuid[])
          order by id`,
    ),
    providerIntents(pair, ids),
    pair.db
      .select({
        change: stockMovements.change,
        after: stockMovements.stockAfter,
        reason: stockMovements.reason,
        orderId: stockMovements.orderId,
      })
      .from(stockMovements)
      .where(sql`${stockMovements.productId} = ${round.productId}`)
      .orderBy(stockMovements.id),
  ]);
  const intentIds = atProvider.map((i) => i.id);
  const shopRefunds = intentIds.length
    ? await pair.db.select().from(refunds).where(inArray(refunds.intentId, intentIds))
    : [];
  return {
    rows: new Map(rows.map((r) => [r.id, r])),
    stock: product?.stock ?? Number.NaN,
    payments: paid,
    recordedIntents: new Set(recorded.map((r) => r.intentId)),
    transitions: transitions.rows,
    atProvider,
    shopRefunds,
    movements,
  };
}
type Ledger = Awaited<ReturnType<typeof ledger>>;

const stateOf = (l: Ledger, id: string): State => l.rows.get(id)?.status ?? "removed";

/**
 * What is still to happen by itself after every request of a round was answered: the expiry jobs
 * expiring due orders and releasing their intents (cancelled, or refunded and recorded).
 */
async function unsettled(pair: Pair, round: Round): Promise<string[]> {
  const l = await ledger(pair, round);
  const work: string[] = [];
  const now = Date.now();
  for (const [id, row] of l.rows) {
    if (row.status === "pending" && row.expiresAt && row.expiresAt.getTime() <= now - 100) {
      work.push(`${id} due, not yet expired`);
    }
  }
  for (const intent of l.atProvider) {
    const state = stateOf(l, intent.orderId);
    if ((state === "expired" || state === "removed") && intent.status === "requires_payment_method") {
      work.push(`${intent.id} of a ${state} order still open`);
    }
    if (intent.status === "succeeded" && intent.refunds.length === 0 && state !== "pending") {
      const kept = l.rows.get(intent.orderId)?.transactionId === intent.id && state !== "refunded";
      if (!kept) work.push(`${intent.id} charged for a ${state} order, not refunded yet`);
    }
    for (const refund of intent.refunds) {
      if (!l.shopRefunds.some((r) => r.providerRefundId === refund.id)) {
        work.push(`${refund.id} not recorded by the shop yet`);
      }
    }
  }
  return work;
}

/**
 * The invariants of issue 17 item 7 for a round's orders: each in one legal state reached by legal
 * moves, each move made once; stock + units held (pending) + units sold (paid, shipped) = the start;
 * one payment record for a paid, shipped or refunded order and none otherwise; at most one charge
 * kept per order (exactly one, its transaction id, for paid and shipped) and at most one refund;
 * every charge of an order that did not keep it refunded; every refund recorded by the shop made at
 * the provider with the same amount, and every refund at the provider recorded.
 */
function violations(l: Ledger, round: Round): string[] {
  const found: string[] = [];
  let held = 0;
  let sold = 0;
  for (const id of round.orderIds) {
    const state = stateOf(l, id);
    const row = l.rows.get(id);
    let at: State = "pending";
    for (const t of l.transitions.filter((t) => t.order_id === id)) {
      if (t.from_state !== at || !LEGAL_MOVES.has(`${t.from_state}>${t.to_state}`)) {
        found.push(`${id}: illegal move ${t.from_state} -> ${t.to_state} (was ${at})`);
      }
      at = t.to_state as State;
    }
    if (at !== state) found.push(`${id}: its moves end in ${at}, it is ${state}`);
    // The stock ledger: booked once; given back once, by its own reason, when it no longer holds units.
    const moves = l.movements.filter((m) => m.orderId === id);
    const booked = moves.filter((m) => m.reason === "booking");
    const back = moves.filter((m) => m.reason !== "booking");
    const giveBack: Partial<Record<State, string>> = {
      removed: "removal",
      expired: "expiry",
      refunded: "refund",
    };
    // A removed order's row is gone: its units are then read from the booking itself.
    const units = row ? row.quantity : -(booked[0]?.change ?? 0);
    if (booked.length !== 1 || booked[0]?.change !== -units || units <= 0)
      found.push(`${id}: booked in the ledger ${JSON.stringify(booked)}`);
    const reason = giveBack[state];
    if (reason === undefined ? back.length > 0 : back.length !== 1 || back[0]?.reason !== reason)
      found.push(`${id}: ${state} with movements ${JSON.stringify(back)}`);
    else if (reason !== undefined && back[0]?.change !== -(booked[0]?.change ?? 0))
      found.push(`${id}: ${state}, given back ${back[0]?.change} of ${-(booked[0]?.change ?? 0)} units`);
    if (state === "pending") held += row?.quantity ?? 0;
    if (state === "paid" || state === "shipped") sold += row?.quantity ?? 0;

    const recordedPayments = l.payments.filter((p) => p.orderId === id);
    const mustHavePaid = state === "paid" || state === "shipped" || state === "refunded";
    if (mustHavePaid) {
      if (recordedPayments.length !== 1 || recordedPayments[0]?.intentId !== row?.transactionId) {
        found.push(
          `${id}: ${state} with payments ${JSON.stringify(recordedPayments.map((p) => p.intentId))}`,
        );
      }
    } else if (recordedPayments.length > 0) found.push(`${id}: ${state} with a payment record`);

    const intents = l.atProvider.filter((i) => i.orderId === id);
    const kept = intents.filter((i) => i.status === "succeeded" && i.refunds.length === 0);
    if (state === "paid" || state === "shipped") {
      if (kept.length !== 1 || kept[0]?.id !== row?.transactionId) {
        found.push(`${id}: ${state} keeping ${kept.length} charges at the provider`);
      }
    } else if (kept.length > 0) found.push(`${id}: ${state} but ${kept.length} charge kept at the provider`);
    const refundCount = intents.reduce((n, i) => n + i.refunds.length, 0);
    if (refundCount > 1) found.push(`${id}: ${refundCount} refunds at the provider`);
    if (state === "refunded" && !intents.some((i) => i.id === row?.transactionId && i.refunds.length === 1)) {
      found.push(`${id}: refunded but its payment not refunded at the provider`);
    }
    for (const intent of intents) {
      if (intent.status !== "succeeded" && intent.refunds.length > 0)
        found.push(`${intent.id}: refund of no charge`);
      if (!l.recordedIntents.has(intent.id)) found.push(`${intent.id}: an intent the shop did not record`);
    }
  }
  // What the admins added or took away in the round, from the ledger.
  const adjusted = l.movements.filter((m) => m.reason === "adjustment").reduce((n, m) => n + m.change, 0);
  if (l.stock < 0 || l.stock + held + sold !== STOCK + adjusted) {
    found.push(`stock ${l.stock} + held ${held} + sold ${sold} != ${STOCK} + adjusted ${adjusted}`);
  }
  // The invariant of the ledger: the stock is the sum of its movements, each one's "after" the
  // running sum (no movement lost, none out of order).
  let running = 0;
  for (const m of l.movements) {
    running += m.change;
    if (m.after !== running) found.push(`movement after ${m.after}, the sum so far ${running}`);
  }
  if (running !== l.stock) found.push(`stock ${l.stock} != the sum of its movements ${running}`);
  for (const refund of l.shopRefunds) {
    const intent = l.atProvider.find((i) => i.id === refund.intentId);
    const made = intent?.refunds.find((r) => r.id === refund.providerRefundId);
    if (!made || made.amount !== refund.amount) {
      found.push(`refund ${refund.providerRefundId} (${refund.amount}) not at the provider as recorded`);
    }
    const state = intent ? stateOf(l, intent.orderId) : "removed";
    const reasons: Record<State, string[]> = {
      // Made at the dashboard before the shop heard of the payment.
      pending: ["admin"],
      paid: [],
      shipped: [],
      refunded: ["admin"],
      expired: ["order_expired"],
      removed: ["order_removed"],
    };
    if (!reasons[state].includes(refund.reason))
      found.push(`refund ${refund.id}: ${refund.reason} for a ${state} order`);
  }
  for (const intent of l.atProvider) {
    for (const made of intent.refunds) {
      if (!l.shopRefunds.some((r) => r.providerRefundId === made.id))
        found.push(`${made.id}: not recorded by the shop`);
    }
  }
  return found;
}

/** Waits for the round's background work, then checks it; the counts of its end states. */
async function settleAndCheck(pair: Pair, round: Round, answers: Answers) {
  await Promise.all(answers.beside);
  await expect.poll(() => unsettled(pair, round), { timeout: 60_000, interval: 50 }).toEqual([]);
  const l = await ledger(pair, round);
  expect(violations(l, round)).toEqual([]);
  expect(answers.serverErrors()).toEqual([]);
  return l;
}

/** Adds a round's end states, refunds and answers into the running figures of a scenario. */
function tally(figures: Figures, l: Ledger, round: Round, answers: Answers, branch: (id: string) => string) {
  figures.orders += round.orderIds.length;
  for (const id of round.orderIds) {
    const state = stateOf(l, id);
    figures.endStates[state] = (figures.endStates[state] ?? 0) + 1;
    const b = branch(id);
    figures.branches[b] = (figures.branches[b] ?? 0) + 1;
  }
  for (const r of l.shopRefunds) figures.refunds[r.reason] = (figures.refunds[r.reason] ?? 0) + 1;
  figures.providerRefunds += l.atProvider.reduce((n, i) => n + i.refunds.length, 0);
  for (const [what, byCode] of Object.entries(answers.codes)) {
    const into = figures.answers[what] ?? {};
    figures.answers[what] = into;
    for (const [code, n] of Object.entries(byCode)) into[code] = (into[code] ?? 0) + n;
  }
  figures.violations += violations(l, round).length;
}

interface Figures {
  rounds: number;
  orders: number;
  endStates: Partial<Record<State, number>>;
  branches: Record<string, number>;
  refunds: Record<string, number>;
  providerRefunds: number;
  answers: Record<string, Record<string, number>>;
  violations: number;
  ms?: number;
  [more: string]: unknown;
}
const newFigures = (): Figures => ({
  rounds: 0,
  orders: 0,
  endStates: {},
  branches: {},
  refunds: {},
  providerRefunds: 0,
  answers: {},
  violations: 0,
});

const results: Record<string, Figures> = {};
afterAll(() => {
  recordResults("13 order lifecycle races", { seed: random.seed, ...results });
});

/**
 * A test's FIGURES.lifecycleRounds rounds on a pair of instances of `provider` holding orders for
 * `hold`: each round with its own tally of answers and a new product. The figures the rounds add
 * to are recorded under `name`, with the time they took, and returned.
 */
async function raceRounds(
  name: string,
  provider: Pair["provider"],
  hold: Record<string, string>,
  play: (round: { pair: Pair; answers: Answers; productId: string; figures: Figures }) => Promise<void>,
): Promise<Figures> {
  const started = Date.now();
  const figures = newFigures();
  await withPair(provider, hold, async (pair) => {
    for (let r = 0; r < FIGURES.lifecycleRounds; r += 1) {
      const answers = new Answers();
      const productId = await newProduct(pair);
      answers.beside.push(adjustDuring(pair, productId, answers));
      await play({ pair, answers, productId, figures });
    }
  });
  figures.ms = Date.now() - started;
  results[name] = figures;
  return figures;
}

/** Admins' adjustments in a round, each set, add or take away. */
const ADJUSTMENTS = 8;

/**
 * The admins adjust the round's product on either instance while its orders are booked, paid,
 * removed, expired and refunded: ADJUSTMENTS of them over the round's first 1.5 s, each adding or
 * taking away a few units, or setting the stock near what it read (a "set" racing the orders, so
 * the stock it sets may be off by what they moved meanwhile: the ledger records what it did).
 */
async function adjustDuring(pair: Pair, productId: string, answers: Answers) {
  const start = Date.now();
  await Promise.all(
    Array.from({ length: ADJUSTMENTS }, async (_, i) => {
      await at(start + chance() * 1_500);
      const instance = anyInstance(pair);
      const units = 1 + Math.floor(chance() * 20);
      let body: Record<string, unknown>;
      if (i % 3 === 0) {
        const read = await instance.app.inject({
          method: "GET",
          url: `/api/products/${productId}/stock`,
          headers: { cookie: pair.admin.cookie },
        });
        answers.add("stock", read.statusCode);
        const quantity = (read.json() as { quantity: number }).quantity;
        body = { mode: "set", quantity: quantity + units - 10, note: `Counted the shelf (${i})` };
      } else body = { mode: i % 3 === 1 ? "add" : "remove", units, note: `Race adjustment ${i}` };
      const res = await post(instance, pair.admin, `/api/products/${productId}/stock/adjustments`, body);
      answers.add("adjust", res.statusCode);
      expect(res.statusCode, res.body).toBe(200);
    }),
  );
}

/** Whether a charge of the order succeeded at the provider, and was refunded. */
function chargeOf(l: Ledger, id: string) {
  const intents = l.atProvider.filter((i) => i.orderId === id);
  return {
    charged: intents.some((i) => i.status === "succeeded"),
    refunded: intents.some((i) => i.refunds.length > 0),
    intent: intents.length > 0,
  };
}

describe.each(["stripe", "sandbox"] as const)("the order lifecycle under concurrency (%s)", (provider) => {
  it(`expiry racing payments: ${FIGURES.lifecycleRounds} × ${FIGURES.lifecycleOrders} orders on a 2 s hold, cards accepted and reported around the deadline, expiry jobs on two instances`, async () => {
    const attempted = new Set<string>();
    await raceRounds(
      `expiry racing payments (${provider})`,
      provider,
      SHORT_HOLD,
      async ({ pair, answers, productId, figures }) => {
        const placed = await Promise.all(
          Array.from({ length: FIGURES.lifecycleOrders }, async (_, i) => {
            const { customer, order, intent } = await bookedWithIntent(pair, productId, i, answers);
            // One order in four is never paid: it expires untouched.
            if (!intent || i % 4 === 0) return order;
            attempted.add(order.id);
            const deadline = Date.parse(order.expiresAt ?? "");
            // The card is accepted from 600 ms before the hold's end to 200 ms after it, and the
            // success reported up to 400 ms later.
            const accepted = deadline - 600 + chance() * 800;
            await at(accepted);
            if (!(await charge(pair, customer, intent, answers))) return order;
            await at(accepted + chance() * 400);
            await report(pair, customer, order, intent.id, answers);
            return order;
          }),
        );
        const round = { productId, orderIds: placed.map((o) => o.id) };
        // Every hold has run out (an order left alone may hold a little longer than the last report).
        await at(Math.max(...placed.map((o) => Date.parse(o.expiresAt ?? ""))) + 200);
        const l = await settleAndCheck(pair, round, answers);
        // Nothing stays pending: every hold ran out, and nothing paid expired.
        expect(round.orderIds.filter((id) => stateOf(l, id) === "pending")).toEqual([]);
        figures.rounds += 1;
        tally(figures, l, round, answers, (id) => {
          const { charged, refunded, intent } = chargeOf(l, id);
          const state = stateOf(l, id);
          if (state === "paid") return "paid before expiry";
          if (!attempted.has(id))
            return intent ? "expired, never paid" : "expired, intent refused (hold ran out)";
          if (charged && refunded) return "charged as it expired: refunded";
          return "expired, card refused (intent cancelled or hold ran out)";
        });
        const expiredBy: Record<string, number> = (figures.expiredBy as Record<string, number>) ?? {};
        for (const t of l.transitions) {
          if (t.to_state === "expired") expiredBy[t.instance] = (expiredBy[t.instance] ?? 0) + 1;
        }
        figures.expiredBy = expiredBy;
      },
    );
  });

  it(`removal racing payment: ${FIGURES.lifecycleRounds} × ${FIGURES.lifecycleOrders} orders removed by the customer or an admin while the card is accepted and reported`, async () => {
    await raceRounds(
      `removal racing payment (${provider})`,
      provider,
      LONG_HOLD,
      async ({ pair, answers, productId, figures }) => {
        const removedBy = new Map<string, string>();
        const placed = await racedOrders(pair, productId, answers, async ({ customer, order, intent }, i) => {
          const start = Date.now() + 20;
          const remover = i % 2 ? customer : pair.admin;
          await Promise.all([
            (async () => {
              const accepted = start + chance() * 120;
              await at(accepted);
              if (!(await charge(pair, customer, intent, answers))) return;
              await at(accepted + chance() * 120);
              await report(pair, customer, order, intent.id, answers);
            })(),
            (async () => {
              await at(start + chance() * 200);
              const res = await fromShop(
                anyInstance(pair).app,
                "DELETE",
                `/api/orders/${order.id}`,
                remover.cookie,
              );
              answers.add("remove", res.statusCode);
              if (res.statusCode === 204) removedBy.set(order.id, i % 2 ? "customer" : "admin");
            })(),
          ]);
          return order;
        });
        const round = { productId, orderIds: placed.map((o) => o.id) };
        const l = await settleAndCheck(pair, round, answers);
        for (const id of round.orderIds) {
          // Removal answered 204 exactly for the orders that are gone, and the rest were paid.
          expect(stateOf(l, id)).toBe(removedBy.has(id) ? "removed" : "paid");
        }
        figures.rounds += 1;
        tally(figures, l, round, answers, (id) => {
          const { charged, refunded } = chargeOf(l, id);
          if (stateOf(l, id) === "paid") return "paid first: removal refused";
          const who = removedBy.get(id);
          if (charged && refunded) return `removed by ${who} after the card was accepted: refunded`;
          return `removed by ${who} before the card: intent cancelled`;
        });
      },
    );
  });
});

const VARIANTS = [
  "admin",
  "admin and dashboard",
  "dashboard",
  "ship and admin",
  "untouched",
  "dashboard before the shop heard of the payment",
];

describe("refunds racing their webhooks (Stripe)", () => {
  it(`${FIGURES.lifecycleRounds} × ${FIGURES.lifecycleOrders} paid orders: admin refunds on both instances, dashboard refunds, ships, and refund webhooks duplicated and out of order`, async () => {
    await raceRounds(
      "refunds racing webhooks (stripe)",
      "stripe",
      LONG_HOLD,
      async ({ pair, answers, productId, figures }) => {
        const variants = new Map<string, string>();
        const placed = await racedOrders(pair, productId, answers, async ({ customer, order, intent }, i) => {
          standIn.succeed(intent.id);
          const variant = VARIANTS[i % VARIANTS.length] as string;
          variants.set(order.id, variant);
          if (variant === "dashboard before the shop heard of the payment") {
            // The tab closed after the card and Stripe's success event is still being retried
            // when staff refund the charge at the dashboard; then the events arrive in any order,
            // and the customer's tab reports the payment after all.
            standIn.refundAtDashboard(intent.id);
            const events = [
              standIn.refundEventPayload("charge.refunded", intent.id),
              standIn.refundEventPayload("refund.created", intent.id),
              standIn.eventPayload("payment_intent.succeeded", intent.id),
            ].sort(() => chance() - 0.5);
            for (const payload of events) await deliver(pair, payload, answers);
            const late = await post(anyInstance(pair), customer, `/api/orders/${order.id}/pay`, {
              transactionId: intent.id,
            });
            answers.add("pay", late.statusCode);
            return order;
          }
          const paid = await post(anyInstance(pair), customer, `/api/orders/${order.id}/pay`, {
            transactionId: intent.id,
          });
          expect(paid.statusCode, paid.body).toBe(200);

          const adminRefunds = (n: number) =>
            Promise.all(
              Array.from({ length: n }, async () => {
                const res = await post(anyInstance(pair), pair.admin, `/api/orders/${order.id}/refund`);
                answers.add("refund", res.statusCode);
              }),
            );
          const refundedAtStripe = () =>
            [...standIn.refunds.values()].some((x) => x.payment_intent === intent.id);
          // Stripe's events about the refund, each delivered once or twice, in any order, with a
          // late success event among them.
          const refundEvents = async () => {
            const events = [
              standIn.refundEventPayload("charge.refunded", intent.id),
              standIn.refundEventPayload("refund.created", intent.id),
              standIn.refundEventPayload("refund.updated", intent.id),
              standIn.eventPayload("payment_intent.succeeded", intent.id),
            ].sort(() => chance() - 0.5);
            await Promise.all(events.map((payload) => deliver(pair, payload, answers)));
          };
          /** The webhooks race the refund: sent as soon as Stripe has made it (mid-transaction). */
          const eventsOnceRefunded = async (done: Promise<unknown>) => {
            let finished = false;
            void done.then(() => {
              finished = true;
            });
            while (!refundedAtStripe() && !finished) await new Promise((resolve) => setTimeout(resolve, 1));
            if (refundedAtStripe()) await refundEvents();
          };
          if (variant === "admin") {
            const done = adminRefunds(1 + Math.floor(chance() * 3));
            await Promise.all([done, eventsOnceRefunded(done)]);
          } else if (variant === "admin and dashboard") {
            const done = adminRefunds(1 + Math.floor(chance() * 2));
            const dashboard = (async () => {
              // Half the time staff act at once, half the time just after the admin's refund
              // reached Stripe (while its transaction is still open).
              if (Math.floor(i / VARIANTS.length) % 2) await at(Date.now() + chance() * 20);
              else {
                let finished = false;
                void done.then(() => {
                  finished = true;
                });
                while (!refundedAtStripe() && !finished)
                  await new Promise((resolve) => setTimeout(resolve, 1));
              }
              try {
                standIn.refundAtDashboard(intent.id);
                answers.add("dashboard", 200);
              } catch {
                // Staff at the dashboard find the charge refunded already.
                answers.add("dashboard", 409);
              }
            })();
            await Promise.all([done, dashboard, eventsOnceRefunded(Promise.all([done, dashboard]))]);
          } else if (variant === "dashboard") {
            standIn.refundAtDashboard(intent.id);
            await refundEvents();
          } else if (variant === "ship and admin") {
            const ship = (async () => {
              const res = await post(anyInstance(pair), pair.admin, `/api/orders/${order.id}/ship`, {
                carrier: "UPS",
                trackingNumber: "1Z999",
              });
              answers.add("ship", res.statusCode);
            })();
            const done = Promise.all([adminRefunds(1), ship]);
            await Promise.all([done, eventsOnceRefunded(done)]);
          } else {
            await deliver(pair, standIn.eventPayload("payment_intent.succeeded", intent.id), answers);
          }
          return order;
        });
        const round = { productId, orderIds: placed.map((o) => o.id) };
        const l = await settleAndCheck(pair, round, answers);
        const expected: Record<string, State[]> = {
          admin: ["refunded"],
          "admin and dashboard": ["refunded"],
          dashboard: ["refunded"],
          "ship and admin": ["refunded", "shipped"],
          untouched: ["paid"],
          // A refunded charge pays no order: it stays unpaid, holding its units until it expires.
          "dashboard before the shop heard of the payment": ["pending"],
        };
        for (const id of round.orderIds) expect(expected[variants.get(id) ?? ""]).toContain(stateOf(l, id));
        figures.rounds += 1;
        tally(figures, l, round, answers, (id) => `${variants.get(id)}: ${stateOf(l, id)}`);
      },
    );
  });
});

describe("two instances expiring at once (sandbox)", () => {
  it(`${FIGURES.lifecycleRounds} × ${FIGURES.expiryCrowd} orders due at the same moment: each expired once, by one instance, its intent cancelled`, async () => {
    const expiredBy: Record<string, number> = {};
    let roundsBothExpired = 0;
    const figures = await raceRounds(
      "two instances expiring at once (sandbox)",
      "sandbox",
      LONG_HOLD,
      async ({ pair, answers, productId, figures }) => {
        const placed: Order[] = [];
        // Booked in waves of 40, each with the payment page's intent for every other order.
        for (let i = 0; i < FIGURES.expiryCrowd; i += 40) {
          const wave = await Promise.all(
            Array.from({ length: Math.min(40, FIGURES.expiryCrowd - i) }, async (_, j) => {
              const customer = pair.customers[(i + j) % pair.customers.length] as TestUser;
              const order = await book(pair, customer, productId, UNITS * (1 + ((i + j) % 2)));
              if (j % 2 === 0) await openIntent(pair, customer, order, answers);
              return order;
            }),
          );
          placed.push(...wave);
        }
        const round = { productId, orderIds: placed.map((o) => o.id) };
        // Every hold runs out at the same moment; both instances' jobs run every 50 ms.
        await pair.db
          .update(orders)
          .set({ expiresAt: sql`now() - interval '1 second'` })
          .where(inArray(orders.id, round.orderIds));
        const l = await settleAndCheck(pair, round, answers);
        expect(round.orderIds.filter((id) => stateOf(l, id) !== "expired")).toEqual([]);
        const expiries = l.transitions.filter((t) => t.to_state === "expired");
        // Exactly one expiry of each order, whichever instance made it.
        expect(expiries).toHaveLength(round.orderIds.length);
        expect(new Set(expiries.map((t) => t.order_id)).size).toBe(round.orderIds.length);
        const by = new Set(expiries.map((t) => t.instance));
        for (const t of expiries) expiredBy[t.instance] = (expiredBy[t.instance] ?? 0) + 1;
        if (by.size === 2) roundsBothExpired += 1;
        expect(l.atProvider.filter((i) => i.status !== "canceled")).toEqual([]);
        figures.rounds += 1;
        tally(figures, l, round, answers, (id) =>
          chargeOf(l, id).intent ? "expired, intent cancelled" : "expired, no intent",
        );
      },
    );
    Object.assign(figures, { expiredBy, roundsWhereBothInstancesExpired: roundsBothExpired });
  });
});
