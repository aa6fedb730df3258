import { sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { z } from "zod";
import { CATEGORIES } from "../../../shared/constants.js";
import { setUpTestApp } from "../../test/app.js";
import { seedScale } from "./scale.js";

/** `npm run seed:scale` at a test's size: the data it makes is whole, varied and valid. */

const ctx = setUpTestApp();

const counts = { users: 300, products: 200, orders: 3000, reviews: 600 };
const one = async <T>(query: ReturnType<typeof sql>) => (await ctx.database.db.execute(query)).rows[0] as T;

it("adds the counts asked for, beside the demo data, all of it valid and spread over two years", async () => {
  const before = await one<{ users: number; products: number; orders: number; reviews: number }>(sql`
    select (select count(*) from "user")::int as users, (select count(*) from product)::int as products,
           (select count(*) from "order")::int as orders, (select count(*) from review)::int as reviews`);
  const client = await ctx.database.pool.connect();
  try {
    const steps = await seedScale(client, counts);
    expect(Object.fromEntries(steps.map((s) => [s.name, s.rows]))).toMatchObject(counts);
    // A second run adds as much again: nothing it makes collides with the first.
    await seedScale(client, { users: 10, products: 10, orders: 10, reviews: 10 });
  } finally {
    client.release();
  }
  const after = await one<typeof before>(sql`
    select (select count(*) from "user")::int as users, (select count(*) from product)::int as products,
           (select count(*) from "order")::int as orders, (select count(*) from review)::int as reviews`);
  expect(after).toEqual({
    users: before.users + counts.users + 10,
    products: before.products + counts.products + 10,
    orders: before.orders + counts.orders + 10,
    reviews: before.reviews + counts.reviews + 10,
  });

  const orders = await one<{
    statuses: string[];
    paid_without_payment: number;
    payment_mismatch: number;
    pending_with_transaction: number;
    oldest_days: number;
    newest_days: number;
    customers: number;
    products: number;
    shipped_before_paid: number;
  }>(sql`
    select array_agg(distinct o.status::text order by o.status::text) as statuses,
           count(*) filter (where o.status not in ('pending', 'expired') and p.id is null)::int as paid_without_payment,
           count(*) filter (where p.id is not null and (p.amount <> o.gross_cents or p.intent_id <> o.transaction_id))::int as payment_mismatch,
           count(*) filter (where o.status in ('pending', 'expired') and (o.transaction_id is not null or p.id is not null))::int as pending_with_transaction,
           extract(day from now() - min(o.created_at))::int as oldest_days,
           extract(day from now() - max(o.created_at))::int as newest_days,
           count(distinct o.user_id)::int as customers, count(distinct o.product_id)::int as products,
           count(*) filter (where o.shipped_at < o.paid_at or o.paid_at < o.created_at)::int as shipped_before_paid
    from "order" o left join payment p on p.order_id = o.id`);
  expect(orders.statuses).toEqual(["expired", "paid", "pending", "refunded", "shipped"]);
  expect(orders).toMatchObject({
    paid_without_payment: 0,
    payment_mismatch: 0,
    pending_with_transaction: 0,
    shipped_before_paid: 0,
  });
  // The lifecycle (features/orders/lifecycle.ts) with the default hold of a day: unpaid orders hold
  // only within it, older ones expired when it ran out, paid ones were paid within it, refunded ones
  // were paid, refunded afterwards and have their refund; the overview's running counts agree.
  const lifecycle = await one<Record<string, number>>(sql`
    select count(*) filter (where status = 'pending' and (expires_at <= now() or created_at < now() - interval '24 hours'))::int as stale_pending,
           count(*) filter (where status = 'pending')::int as pending,
           count(*) filter (where status = 'expired' and (expired_at is null or expired_at <> expires_at or expires_at > now()))::int as bad_expired,
           count(*) filter (where expires_at is distinct from created_at + interval '24 hours')::int as bad_hold,
           count(*) filter (where paid_at > expires_at)::int as paid_after_hold,
           count(*) filter (where status = 'refunded' and (refunded_at is null or refunded_at < paid_at or shipped_at is not null))::int as bad_refunded,
           count(*) filter (where status = 'refunded' and not exists (
             select 1 from refund r where r.order_id = o.id and r.intent_id = o.transaction_id and r.amount = o.gross_cents))::int as refunded_without_refund,
           count(*) filter (where status <> 'refunded' and (refunded_at is not null or exists (select 1 from refund r where r.order_id = o.id)))::int as refund_elsewhere
    from "order" o`);
  expect(lifecycle).toMatchObject({
    stale_pending: 0,
    bad_expired: 0,
    bad_hold: 0,
    paid_after_hold: 0,
    bad_refunded: 0,
    refunded_without_refund: 0,
    refund_elsewhere: 0,
  });
  expect(lifecycle.pending).toBeGreaterThan(20);
  const drift = await one<{ drift: number }>(sql`
    select count(*)::int as drift from (
      select 'orders:' || status as key, count(*) as n from "order" group by status) actual
    full join (select key, sum(n) as n from overview_count where key like 'orders:%' group by key) counted using (key)
    where actual.n is distinct from counted.n and coalesce(actual.n, 0) + coalesce(counted.n, 0) > 0`);
  expect(drift.drift).toBe(0);

  expect(orders.oldest_days).toBeGreaterThan(600);
  expect(orders.oldest_days).toBeLessThanOrEqual(730);
  expect(orders.newest_days).toBeLessThan(30);
  expect(orders.customers).toBeGreaterThan(200);
  expect(orders.products).toBeGreaterThan(150);

  const emails = (await ctx.database.db.execute(sql`select email from "user"`)).rows.map((r) =>
    String(r.email),
  );
  expect(new Set(emails).size).toBe(emails.length);
  for (const email of emails) expect(z.email().safeParse(email).success, email).toBe(true);
  const names = await one<{ distinct_names: number; categories: string[] }>(sql`
    select count(distinct name)::int as distinct_names, array_agg(distinct category::text) as categories from product`);
  expect(names.distinct_names).toBeGreaterThan(180);
  expect([...names.categories].sort()).toEqual([...CATEGORIES].sort());
  const ratings = await one<{ ratings: number[] }>(
    sql`select array_agg(distinct rating order by rating) as ratings from review where user_id is not null`,
  );
  expect(ratings.ratings).toEqual([1, 2, 3, 4, 5]);

  // The seed lifts the GIN indexes' pending list limit while it adds rows: it is back, and the
  // VACUUM has merged what the lists held.
  await ctx.database.db.execute(sql`create extension if not exists pgstattuple`);
  const gin = (
    await ctx.database.db.execute(sql`
      select c.relname as name, c.reloptions as options, (pgstatginindex(c.oid)).pending_pages as pending
      from pg_index x join pg_class c on c.oid = x.indexrelid join pg_am am on am.oid = c.relam
      where am.amname = 'gin' and x.indrelid in ('"user"'::regclass, 'product'::regclass, '"order"'::regclass)`)
  ).rows as { name: string; options: string[] | null; pending: number }[];
  expect(gin.map((g) => g.name)).toContain("order_search_text_trgm_idx");
  for (const index of gin)
    expect(index, index.name).toMatchObject({ options: ["gin_pending_list_limit=128"], pending: 0 });

  // The shop's catalog, cached, hears of the new products.
  await expect
    .poll(async () => (await ctx.app.inject({ url: "/api/products?pageSize=1" })).json().total)
    .toBe(after.products);
});
