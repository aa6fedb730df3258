import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { Product, ProductList } from "../../../shared/catalog.js";
import { adminMessages } from "../../../shared/messages/admin.js";
import { catalogMessages } from "../../../shared/messages/catalog.js";
import { catalogCsvMessages } from "../../../shared/messages/catalog-csv.js";
import { products } from "../../db/schema/index.js";
import { setUpTestApp } from "../../test/app.js";
import { fromShop } from "../../test/users.js";

const ADMIN_EMAIL = "catalog.admin@example.com";
const ctx = setUpTestApp({}, { rateLimit: { max: 10_000, windowSeconds: 60 } });
const admin = ctx.signedUpAdmin({ email: ADMIN_EMAIL });
const customer = ctx.signedUpUser();

const UPLOADED = `/api/images/${"ab12".repeat(16)}.webp`;
const valid = {
  name: "Nimbus 75 Wireless Keyboard",
  image: UPLOADED,
  price: 129,
  quantity: 300,
  description: "A 75% gasket-mounted board with tri-mode wireless.",
  category: "keyboards",
};

async function productCount(): Promise<number> {
  const [row] = await ctx.database.db.select({ n: sql<number>`count(*)::int` }).from(products);
  return row?.n ?? -1;
}

const addProduct = (payload: unknown, cookie = admin.cookie) =>
  fromShop(ctx.app, "POST", "/api/products", cookie, payload);
const patchProduct = (id: string, payload: object, cookie = admin.cookie) =>
  fromShop(ctx.app, "PATCH", `/api/products/${id}`, cookie, payload);

describe("a product's SKU", () => {
  it("is the admin's, in upper case, when given, and unique: another product's is a 409", async () => {
    const sku = `kb-${Date.now()}`;
    const res = await addProduct({ ...valid, sku: ` ${sku} ` });
    expect(res.statusCode).toBe(201);
    expect(res.json().sku).toBe(sku.toUpperCase());
    const taken = await addProduct({ ...valid, sku: sku.toUpperCase() });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().detail).toBe(catalogCsvMessages.skuTaken);
    const bad = await addProduct({ ...valid, sku: "no spaces" });
    expect(bad.statusCode).toBe(400);
  });
});

describe("POST /api/products", () => {
  it("adds a product that the catalog then shows, with trimmed texts", async () => {
    const res = await addProduct({
      ...valid,
      name: `  ${valid.name}  `,
      description: ` ${valid.description} `,
    });
    expect(res.statusCode).toBe(201);
    const created: Product = res.json();
    // Without a SKU given, the shop makes one (migration 0019's product_sku_seq).
    expect(created).toEqual({ id: expect.any(String), ...valid, sku: expect.stringMatching(/^GH-\d{6,}$/) });
    const shown = await ctx.app.inject({ url: `/api/products/${created.id}` });
    expect(shown.json()).toEqual(created);
    const found: ProductList = (
      await ctx.app.inject({ url: `/api/products?search=${encodeURIComponent("Nimbus 75")}` })
    ).json();
    expect(found.items.map((p) => p.id)).toContain(created.id);
  });

  it("accepts the shop's own /media art, a stock of 0 and every category", async () => {
    for (const category of ["keyboards", "mice", "memory", "headphones", "cooling-fans"]) {
      const res = await addProduct({
        ...valid,
        category,
        quantity: 0,
        image: "/media/products/gale-120-high-static-pressure-fan.svg",
      });
      expect(res.statusCode, category).toBe(201);
    }
  });

  const tooLong = (n: number) => "x".repeat(n);
  it.each([
    ["name", { name: "" }, adminMessages.products.nameRequired],
    ["name", { name: "   " }, adminMessages.products.nameRequired],
    ["name", { name: tooLong(121) }, adminMessages.products.nameTooLong(120)],
    ["name", { name: undefined }, adminMessages.products.nameRequired],
    ["description", { description: "" }, adminMessages.products.descriptionRequired],
    ["description", { description: tooLong(2001) }, adminMessages.products.descriptionTooLong(2000)],
    ["description", { description: undefined }, adminMessages.products.descriptionRequired],
    ["price", { price: 0 }, adminMessages.products.priceInvalid(1)],
    ["price", { price: -5 }, adminMessages.products.priceInvalid(1)],
    ["price", { price: 19.99 }, adminMessages.products.priceInvalid(1)],
    ["price", { price: "25" }, adminMessages.products.priceInvalid(1)],
    ["price", { price: 100_001 }, adminMessages.products.priceTooHigh(100_000)],
    ["price", { price: undefined }, adminMessages.products.priceInvalid(1)],
    ["quantity", { quantity: -1 }, adminMessages.products.quantityInvalid],
    ["quantity", { quantity: 2.5 }, adminMessages.products.quantityInvalid],
    ["quantity", { quantity: "10" }, adminMessages.products.quantityInvalid],
    ["quantity", { quantity: 1_000_001 }, adminMessages.products.quantityTooHigh(1_000_000)],
    ["category", { category: "cars" }, adminMessages.products.categoryInvalid],
    ["category", { category: undefined }, adminMessages.products.categoryInvalid],
    ["image", { image: "https://example.com/keyboard.png" }, adminMessages.products.imageInvalid],
    ["image", { image: "/api/images/abc.webp" }, adminMessages.products.imageInvalid],
    ["image", { image: `/api/images/${"AB12".repeat(16)}.webp` }, adminMessages.products.imageInvalid],
    ["image", { image: "/media/../../etc/passwd.png" }, adminMessages.products.imageInvalid],
    ["image", { image: "javascript:alert(1)" }, adminMessages.products.imageInvalid],
    ["image", { image: undefined }, adminMessages.products.imageInvalid],
  ])("refuses a bad %s (%o) with 400 and stores nothing", async (field, override, message) => {
    const before = await productCount();
    const res = await addProduct({ ...valid, ...override });
    expect(res.statusCode).toBe(400);
    expect(res.headers["content-type"]).toContain("application/problem+json");
    expect(res.json().errors).toContainEqual({ path: field, message });
    expect(await productCount()).toBe(before);
  });

  it("is refused to a customer (403) and a visitor (401), storing nothing", async () => {
    const before = await productCount();
    expect((await addProduct(valid, customer.cookie)).statusCode).toBe(403);
    expect((await addProduct(valid, "")).statusCode).toBe(401);
    expect(await productCount()).toBe(before);
  });
});

describe("PATCH /api/products/:id", () => {
  async function fresh(): Promise<Product> {
    return (await addProduct({ ...valid, quantity: 5 })).json();
  }

  it("restocks a product and changes only what is sent", async () => {
    const product = await fresh();
    const res = await patchProduct(product.id, { quantity: 500 });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ...product, quantity: 500, archivedAt: null });
    expect((await ctx.app.inject({ url: `/api/products/${product.id}` })).json().quantity).toBe(500);
  });

  it("changes price and description together, and name, image and category too", async () => {
    const product = await fresh();
    const res = await patchProduct(product.id, {
      price: 99,
      description: " Now with PBT keycaps. ",
      name: "Nimbus 75 Pro",
      image: "/media/products/pulse-60-compact-keyboard.svg",
      category: "mice",
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      id: product.id,
      sku: product.sku,
      price: 99,
      quantity: 5,
      description: "Now with PBT keycaps.",
      name: "Nimbus 75 Pro",
      image: "/media/products/pulse-60-compact-keyboard.svg",
      category: "mice",
      archivedAt: null,
    });
  });

  it("refuses bad values and an empty change, changing nothing", async () => {
    const product = await fresh();
    for (const patch of [{ quantity: -1 }, { quantity: 1.5 }, { price: 0 }, { description: "  " }, {}]) {
      const res = await patchProduct(product.id, patch);
      expect(res.statusCode, JSON.stringify(patch)).toBe(400);
    }
    const empty = await patchProduct(product.id, { id: "other", unknown: 1 });
    expect(empty.json().detail).toContain(adminMessages.products.nothingToChange);
    const [row] = await ctx.database.db.select().from(products).where(eq(products.id, product.id));
    expect(row).toMatchObject({ quantity: 5, price: valid.price, description: valid.description });
  });

  it("answers 404 for an unknown product", async () => {
    const res = await patchProduct("00000000-0000-4000-8000-000000000000", { quantity: 10 });
    expect(res.statusCode).toBe(404);
    expect(res.json().detail).toBe(catalogMessages.notFound);
  });

  it("is refused to a customer (403) and a visitor (401), changing nothing", async () => {
    const product = await fresh();
    expect((await patchProduct(product.id, { quantity: 1 }, customer.cookie)).statusCode).toBe(403);
    expect((await patchProduct(product.id, { quantity: 1 }, "")).statusCode).toBe(401);
    expect((await ctx.app.inject({ url: `/api/products/${product.id}` })).json().quantity).toBe(5);
  });
});
