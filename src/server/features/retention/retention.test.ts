import { eq, inArray, type SQL, sql } from "drizzle-orm";
import pg from "pg";
import { describe, expect, it } from "vitest";
import {
  idempotencyKeys,
  mailOutbox,
  orderIntents,
  rateLimits,
  sandboxIntents,
} from "../../db/schema/index.js";
import { registry } from "../../lib/metrics.js";
import { hitRateLimit } from "../../lib/rate-limit.js";
import { createTestApp, setUpTestApp } from "../../test/app.js";
import { paidOrder, placeOrder } from "../../test/payments.js";
import { until } from "../../test/until.js";
import { signUp } from "../../test/users.js";
import { runRetentionPass } from "./index.js";
import {
  cancelledIntentStep,
  idempotencyKeyStep,
  outboxStep,
  rateLimitStep,
  removeCancelledIntents,
  removeEndedRateLimits,
  removeOldIdempotencyKeys,
  removeOldOutboxRows,
} from "./retention.js";

const ctx = setUpTestApp();
const alice = ctx.signedUpUser({ name: "Alice Retained" });
const db = () => ctx.database.db;
const hoursAgo = (h: number) => new Date(Date.now() - h * 3_600_000);
const daysAgo = (d: number) => hoursAgo(d * 24);
const RETENTION = { intervalSeconds: 0, outboxDays: 30, cancelledIntentDays: 7, rateLimitSeconds: 24 * 3600 };

let keys = 0;
/** An idempotency key of alice's, made at `createdAt`, for `orderId`. */
async function key(createdAt: Date, orderId: string | null): Promise<string> {
  const name = `key-${++keys}`;
  await db()
    .insert(idempotencyKeys)
    .values({ userId: alice.id, key: name, requestHash: "h", orderId, createdAt });
  return name;
}
const keysLeft = async (names: string[]) =>
  (
    await db()
      .select({ key: idempotencyKeys.key })
      .from(idempotencyKeys)
      .where(inArray(idempotencyKeys.key, names))
  )
    .map((r) => r.key)
    .sort();

describe("the retention job", () => {
  it("removes idempotency keys after a day, never a young one, one whose order still holds units, or one in use", async () => {
    const paid = await paidOrder(ctx, alice);
    const pending = await placeOrder(ctx, alice);
    const old = await key(hoursAgo(25), paid.id);
    const orphan = await key(hoursAgo(30), null);
    const young = await key(hoursAgo(23), paid.id);
    const holding = await key(hoursAgo(25), pending.id);
    const inUse = await key(hoursAgo(26), paid.id);

    // A booking holds `inUse` (its row locked) while the step runs: the step passes it by.
    const client = new pg.Client({ connectionString: ctx.url });
    await client.connect();
    try {
      await client.query("begin");
      await client.query(`select 1 from idempotency_key where key = $1 for update`, [inUse]);
      expect(await removeOldIdempotencyKeys(db())).toBe(2);
      expect(await keysLeft([old, orphan, young, holding, inUse])).toEqual([holding, inUse, young].sort());
      await client.query("commit");
    } finally {
      await client.end();
    }
    expect(await removeOldIdempotencyKeys(db())).toBe(1);
    expect(await keysLeft([young, holding, inUse])).toEqual([holding, young].sort());
  });

  it("removes outbox rows sent or given up long ago, never one still to send or a reminder of an unpaid order", async () => {
    const paid = await paidOrder(ctx, alice);
    const pending = await placeOrder(ctx, alice);
    const rows = await db()
      .insert(mailOutbox)
      .values([
        { kind: "order_shipped", orderId: paid.id, sentAt: daysAgo(31) },
        { kind: "order_refunded", orderId: paid.id, droppedAt: daysAgo(40), lastError: "x" },
        { kind: "order_expired", orderId: paid.id, sentAt: daysAgo(29) },
        { kind: "payment_reminder", orderId: pending.id, sentAt: daysAgo(31) },
        { kind: "order_expired", orderId: pending.id, dueAt: daysAgo(60), createdAt: daysAgo(60) },
      ])
      .returning({ id: mailOutbox.id });
    const ids = rows.map((r) => r.id);
    expect(await removeOldOutboxRows(db(), { days: 30 })).toBe(2);
    const left = await db().select({ id: mailOutbox.id }).from(mailOutbox).where(inArray(mailOutbox.id, ids));
    expect(left.map((r) => r.id).sort()).toEqual(ids.slice(2).sort());
  });

  it("removes cancelled sandbox intents after their days, with the shop's record of them, and no other intent", async () => {
    const order = await placeOrder(ctx, alice);
    const intent = (id: string, status: string, createdAt: Date) => ({
      id,
      clientSecret: `${id}_secret`,
      orderId: order.id,
      amount: 370,
      currency: "usd",
      status,
      createdAt,
    });
    await db()
      .insert(sandboxIntents)
      .values([
        intent("pi_old_cancelled", "canceled", daysAgo(8)),
        intent("pi_young_cancelled", "canceled", daysAgo(6)),
        intent("pi_old_open", "requires_payment_method", daysAgo(8)),
        intent("pi_old_paid", "succeeded", daysAgo(8)),
      ]);
    const ids = ["pi_old_cancelled", "pi_young_cancelled", "pi_old_open", "pi_old_paid"];
    await db()
      .insert(orderIntents)
      .values(ids.map((intentId) => ({ intentId, orderId: order.id, provider: "sandbox" })));
    expect(await removeCancelledIntents(db(), { days: 7 })).toBe(1);
    const left = await db()
      .select({ id: sandboxIntents.id })
      .from(sandboxIntents)
      .where(inArray(sandboxIntents.id, ids));
    expect(left.map((r) => r.id).sort()).toEqual(ids.slice(1).sort());
    const records = await db().select().from(orderIntents).where(eq(orderIntents.orderId, order.id));
    expect(records.map((r) => r.intentId).sort()).toEqual(ids.slice(1).sort());
  });

  it("removes rate-limit counters whose window ended longer ago than the longest window, and they count nothing after", async () => {
    const counters = {
      old: `test:old:${Date.now()}`,
      young: `test:young:${Date.now()}`,
      held: `booking:address-units:192.0.2.7:${Date.now()}`,
    };
    await db()
      .insert(rateLimits)
      .values([
        { key: counters.old, count: 50, windowStart: hoursAgo(25) },
        { key: counters.young, count: 50, windowStart: hoursAgo(23) },
        { key: counters.held, count: 50, windowStart: hoursAgo(30) },
      ]);
    const left = async () =>
      (
        await db()
          .select({ key: rateLimits.key })
          .from(rateLimits)
          .where(inArray(rateLimits.key, Object.values(counters)))
      )
        .map((r) => r.key)
        .sort();
    // A hold of 48 hours: the units an address booked within it are still counted, so nothing goes.
    expect(await removeEndedRateLimits(db(), { olderThanSeconds: 48 * 3600 })).toBe(0);
    expect(await left()).toEqual(Object.values(counters).sort());
    // The default day: both counters whose window started over a day ago go, the younger stays.
    expect(await removeEndedRateLimits(db(), { olderThanSeconds: 24 * 3600 })).toBe(2);
    expect(await left()).toEqual([counters.young]);
    // A removed counter is as one whose window ended: the next hit starts a new window at 1.
    const hit = await hitRateLimit(db(), counters.old, 1, 3600);
    expect(hit.allowed).toBe(true);
  });

  it("works in bounded batches: a pass takes each table's steps while full ones come back", async () => {
    const order = await paidOrder(ctx, alice);
    const made = [];
    for (let i = 0; i < 7; i++) made.push(await key(hoursAgo(48 + i), order.id));
    expect(await removeOldIdempotencyKeys(db(), { batch: 3 })).toBe(3);
    expect(await keysLeft(made)).toHaveLength(4);
    const removed = await runRetentionPass(db(), RETENTION);
    expect(removed.idempotency_key).toBeGreaterThanOrEqual(4);
    expect(await keysLeft(made)).toEqual([]);
    // Nothing old is left: the next pass removes nothing.
    expect(await runRetentionPass(db(), RETENTION)).toEqual({
      idempotency_key: 0,
      mail_outbox: 0,
      sandbox_intent: 0,
      rate_limit: 0,
    });
  });

  it("reads each batch from its index, in order, whatever the table's size", async () => {
    // The test's tables are small, and their statistics few, where scanning and sorting is cheaper;
    // priced out here, a plan that still sorts or scans the table would mean no index serves the
    // batch in its order (as the shop's large tables need it).
    const plan = (statement: SQL) =>
      db().transaction(async (tx) => {
        for (const off of ["seqscan", "bitmapscan", "sort"])
          await tx.execute(sql.raw(`set local enable_${off} = off`));
        const result = await tx.execute<{ "QUERY PLAN": unknown }>(sql`explain (format json) ${statement}`);
        return JSON.stringify(result.rows[0]?.["QUERY PLAN"]);
      });
    const scans = (text: string) => [...text.matchAll(/"Index Name":"([a-z_]+)"/g)].map((m) => m[1]);
    const noSort = (text: string) => {
      expect(text).not.toContain('"Node Type":"Sort"');
      expect(text).not.toContain('"Node Type":"Seq Scan"');
    };

    const keysPlan = await plan(idempotencyKeyStep());
    expect(scans(keysPlan)).toContain("idempotency_key_created_idx");
    noSort(keysPlan);
    const outboxPlan = await plan(outboxStep({ days: 30 }));
    expect(scans(outboxPlan)).toContain("mail_outbox_done_idx");
    noSort(outboxPlan);
    const intentsPlan = await plan(cancelledIntentStep({ days: 7 }));
    expect(scans(intentsPlan)).toContain("sandbox_intent_canceled_idx");
    noSort(intentsPlan);
    const countersPlan = await plan(rateLimitStep({ olderThanSeconds: 24 * 3600 }));
    expect(scans(countersPlan)).toContain("rate_limit_window_start_idx");
    noSort(countersPlan);
  });

  it("runs on its own in the app, every RETENTION_INTERVAL_SECONDS, and counts what it removed", async () => {
    const shop = await createTestApp({ RETENTION_INTERVAL_SECONDS: "1" });
    try {
      const user = await signUp(shop.app);
      const removedBefore = await removedKeys();
      await shop.database.db
        .insert(idempotencyKeys)
        .values({ userId: user.id, key: "old", requestHash: "h", createdAt: hoursAgo(25) });
      const left = () =>
        shop.database.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.userId, user.id));
      await until("the job removed the old key", async () => (await left()).length === 0);
      expect(await removedKeys()).toBeGreaterThan(removedBefore);
    } finally {
      await shop.close();
    }
  });
});

/** gearhouse_retention_rows_removed_total{table="idempotency_key"} as this process counts it. */
async function removedKeys(): Promise<number> {
  const metric = await registry.getSingleMetric("gearhouse_retention_rows_removed_total")?.get();
  return metric?.values.find((v) => v.labels.table === "idempotency_key")?.value ?? 0;
}
