import { sql } from "drizzle-orm";
import { beforeAll, expect, it } from "vitest";
import type { ProductList } from "../../../shared/catalog.js";
import { DEFAULT_PAGE_SIZE, SEARCH_COUNT_LIMIT } from "../../../shared/constants.js";
import { demoProducts } from "../../db/seed/demo-catalog.js";
import { setUpTestApp } from "../../test/app.js";

/**
 * A list's count stops at SEARCH_COUNT_LIMIT ("more than 1,000"), so a page never reads a whole
 * category to count it (76 ms at 100,000 products when it counted them all); below it the count is
 * exact.
 */
const ctx = setUpTestApp();
beforeAll(async () => {
  await ctx.database.db.execute(sql`
    insert into product (name, description, image, price, quantity, category)
    select 'Bulk Stick ' || lpad(g::text, 5, '0'), 'A memory stick of the count test.',
           '/media/products/stealth-ddr4-3600-16gb-kit.svg', 50, 100, 'memory'
    from generate_series(1, ${SEARCH_COUNT_LIMIT + 5}) g`);
  ctx.app.catalogCache.everythingChanged();
});

async function list(query: string): Promise<ProductList> {
  const res = await ctx.app.inject({ url: `/api/products${query}` });
  expect(res.statusCode).toBe(200);
  return res.json();
}

it("says 'more than' for a list past the limit, and still pages through it", async () => {
  const memory = await list("?category=memory&sort=name-asc");
  expect(memory).toMatchObject({ total: SEARCH_COUNT_LIMIT, totalExact: false });
  expect(memory.items).toHaveLength(DEFAULT_PAGE_SIZE);
  // Past the counted thousand, pages still come: the last bulk stick sorts after every demo kit.
  const deep = await list(`?category=memory&sort=name-asc&pageSize=48&page=${Math.ceil(1_000 / 48) + 1}`);
  expect(deep.items.length).toBeGreaterThan(0);
  expect(deep.items.every((p) => p.category === "memory")).toBe(true);
  const everything = await list("");
  expect(everything).toMatchObject({ total: SEARCH_COUNT_LIMIT, totalExact: false });
});

it("counts exactly below the limit", async () => {
  const mice = await list("?category=mice");
  expect(mice).toMatchObject({
    total: demoProducts.filter((p) => p.category === "mice").length,
    totalExact: true,
  });
});

it("pages a category in every order, each product once and in the order's sequence (the deferred join)", async () => {
  const orders = {
    "name-asc": sql`name, id`,
    "name-desc": sql`name desc, id desc`,
    "price-asc": sql`price, id`,
    "price-desc": sql`price desc, id desc`,
    newest: sql`created_at desc, id desc`,
  };
  for (const [sort, orderBy] of Object.entries(orders)) {
    const expected = await ctx.database.db.execute<{ id: string }>(
      sql`select id from product where category = 'memory' order by ${orderBy}`,
    );
    const seen: string[] = [];
    for (let page = 1; ; page++) {
      const { items } = await list(`?category=memory&sort=${sort}&pageSize=48&page=${page}`);
      if (items.length === 0) break;
      seen.push(...items.map((p) => p.id));
    }
    expect(seen, sort).toEqual(expected.rows.map((r) => r.id));
  }
});
