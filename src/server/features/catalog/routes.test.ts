import { describe, expect, it } from "vitest";
import type { Product, ProductList } from "../../../shared/catalog.js";
import { demoProducts } from "../../db/seed/demo-catalog.js";
import { setUpTestApp } from "../../test/app.js";

// Read-only tests on the untouched demo catalog; the admin's changes are in admin-routes.test.ts.
const ctx = setUpTestApp();

async function list(query: string): Promise<ProductList> {
  const res = await ctx.app.inject({ method: "GET", url: `/api/products${query}` });
  expect(res.statusCode).toBe(200);
  return res.json();
}

describe("GET /api/products", () => {
  it("returns the first page of the demo catalog with the total", async () => {
    const body = await list("");
    expect(body.total).toBe(demoProducts.length);
    expect(body.items).toHaveLength(Math.min(12, demoProducts.length));
    const names = body.items.map((p) => p.name);
    expect(names).toEqual([...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    for (const p of body.items) {
      expect(Number.isInteger(p.price)).toBe(true);
      expect(Number.isInteger(p.quantity)).toBe(true);
    }
  });

  it("paginates without overlap and covers every product", async () => {
    const first = await list("?pageSize=5&page=1");
    const second = await list("?pageSize=5&page=2");
    expect(first.items).toHaveLength(5);
    const ids = new Set([...first.items, ...second.items].map((p) => p.id));
    expect(ids.size).toBe(10);
    const all: Product[] = [];
    for (let page = 1; page <= Math.ceil(first.total / 5); page++)
      all.push(...(await list(`?pageSize=5&page=${page}`)).items);
    expect(new Set(all.map((p) => p.id)).size).toBe(demoProducts.length);
  });

  it("answers an empty page past the end with the real total", async () => {
    const body = await list("?page=99");
    expect(body.items).toEqual([]);
    expect(body.total).toBe(demoProducts.length);
  });

  it("filters by category", async () => {
    const body = await list("?category=mice&pageSize=48");
    const expected = demoProducts.filter((p) => p.category === "mice").length;
    expect(body.total).toBe(expected);
    expect(body.items.every((p) => p.category === "mice")).toBe(true);
  });

  it("searches names and descriptions case-insensitively, treating wildcards literally", async () => {
    const target = demoProducts[0];
    if (!target) throw new Error("no demo products");
    const word = target.name.split(" ")[0] ?? "";
    const body = await list(`?search=${encodeURIComponent(word.toUpperCase())}`);
    expect(body.items.some((p) => p.name === target.name)).toBe(true);
    const literal = (c: string) =>
      demoProducts.filter((p) => `${p.name} ${p.description}`.includes(c)).length;
    expect((await list("?search=%25")).total).toBe(literal("%"));
    expect((await list("?search=_")).total).toBe(literal("_"));
    expect((await list("?search=zz%25zz")).total).toBe(0);
  });

  it("sorts by price both ways", async () => {
    const asc = (await list("?sort=price-asc&pageSize=48")).items.map((p) => p.price);
    expect(asc).toEqual([...asc].sort((a, b) => a - b));
    const desc = (await list("?sort=price-desc&pageSize=48")).items.map((p) => p.price);
    expect(desc).toEqual([...asc].reverse());
  });

  it("refuses an invalid query with a problem", async () => {
    for (const q of ["?page=0", "?pageSize=1000", "?sort=random", "?category=cars", "?page=abc"]) {
      const res = await ctx.app.inject({ method: "GET", url: `/api/products${q}` });
      expect(res.statusCode, q).toBe(400);
      expect(res.headers["content-type"]).toContain("application/problem+json");
      expect(res.json()).toMatchObject({ status: 400, title: "Bad Request" });
    }
  });
});

describe("GET /api/products/:id", () => {
  it("returns one product", async () => {
    const [first] = (await list("")).items;
    const res = await ctx.app.inject({ method: "GET", url: `/api/products/${first?.id}` });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(first);
  });

  it("answers 404 for an unknown product and 400 for a malformed id", async () => {
    const missing = await ctx.app.inject({
      method: "GET",
      url: "/api/products/00000000-0000-4000-8000-000000000000",
    });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ status: 404, detail: "This product does not exist." });
    const bad = await ctx.app.inject({ method: "GET", url: "/api/products/not-a-uuid" });
    expect(bad.statusCode).toBe(400);
  });
});
