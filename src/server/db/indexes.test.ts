import pg from "pg";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createTestDatabase } from "../test/app.js";

let testDb: Awaited<ReturnType<typeof createTestDatabase>>;
let client: pg.Client;
beforeAll(async () => {
  testDb = await createTestDatabase();
  client = new pg.Client({ connectionString: testDb.url });
  await client.connect();
  // pgstatginindex reads a GIN index's metapage.
  await client.query("create extension if not exists pgstattuple");
});
afterAll(async () => {
  await client?.end();
  await testDb?.drop();
});

// Migration 0007: a search reads a GIN index's whole pending list, which PostgreSQL lets grow to
// 4 MB by default; at 1,000,000 orders 6,000 new orders made an order search twelve times slower.
it("keeps the pending list of every GIN index, those of migrations to come included, at 128 kB", async () => {
  const { rows } = await client.query<{ name: string; options: string[] | null }>(`
    select c.relname as name, c.reloptions as options
    from pg_class c join pg_am am on am.oid = c.relam join pg_namespace n on n.oid = c.relnamespace
    where c.relkind = 'i' and am.amname = 'gin' and n.nspname = 'public' order by 1`);
  expect(rows.map((r) => r.name)).toContain("order_search_text_trgm_idx");
  expect(rows.filter((r) => !r.options?.includes("gin_pending_list_limit=128")).map((r) => r.name)).toEqual(
    [],
  );
});

it("merges new rows into a trigram index as they come, so searches read no long pending list", async () => {
  await client.query(`
    insert into "user" (id, name, email, email_verified, created_at, updated_at)
    select 'pending-' || g, 'Pending Person ' || g, 'pending.' || g || '@example.com', true, now(), now()
    from generate_series(1, 3000) g`);
  const { rows } = await client.query<{ pages: number }>(
    "select pending_pages as pages from pgstatginindex('user_email_trgm_idx')",
  );
  // 128 kB is 16 pages of 8 kB.
  expect(rows[0]?.pages).toBeLessThanOrEqual(16);
});
