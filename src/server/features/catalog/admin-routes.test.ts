import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { Product, ProductList } from "../../../shared/catalog.js";
import { adminMessages } from "../../../shared/messages/admin.js";
import { catalogMessages } from "../../../shared/messages/catalog.js";
import { catalogCsvMessages } from "../../../shared/messages/catalog-csv.js";
import { pricingMessages } from "../../../shared/messages/pricing.js";
import { MAX_PRICE_TIERS } from "../../../shared/pricing.js";
import { activityLog, products } from "../../db/schema/index.js";
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
    expect(created).toEqual({
      id: expect.any(String),
      ...valid,
      sku: expect.stringMatching(/^GH-\d{6,}$/),
      priceTiers: [],
    });
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
      priceTiers: [],
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

describe("volume prices (priceTiers)", () => {
  const t = pricingMessages.tiers;
  const TIERS = [
    { min: 10, price: 119 },
    { min: 50, price: 109 },
    { min: 100, price: 99 },
  ];
  const storedTiers = async (id: string) =>
    (await ctx.database.db.select().from(products).where(eq(products.id, id)))[0]?.priceTiers;
  const logged = (id: string, action: typeof activityLog.$inferSelect.action) =>
    ctx.database.db
      .select({ changes: activityLog.changes })
      .from(activityLog)
      .where(and(eq(activityLog.targetId, id), eq(activityLog.action, action)));

  it("are added with a product, answered on every read, and logged with it", async () => {
    const res = await addProduct({ ...valid, priceTiers: TIERS });
    expect(res.statusCode).toBe(201);
    const created: Product = res.json();
    expect(created.priceTiers).toEqual(TIERS);
    expect((await ctx.app.inject({ url: `/api/products/${created.id}` })).json().priceTiers).toEqual(TIERS);
    expect(await storedTiers(created.id)).toEqual(TIERS);
    const [entry] = await logged(created.id, "product.created");
    expect(entry?.changes).toMatchObject({ priceTiers: [null, TIERS] });
  });

  it.each([
    ["below the smallest order", [{ min: 9, price: 100 }], "priceTiers.0.min", t.minInvalid(10, 1_000_000)],
    ["a fraction of a unit", [{ min: 10.5, price: 100 }], "priceTiers.0.min", t.minInvalid(10, 1_000_000)],
    ["a price in cents", [{ min: 10, price: 99.5 }], "priceTiers.0.price", t.priceInvalid(100_000)],
    ["a price of nothing", [{ min: 10, price: 0 }], "priceTiers.0.price", t.priceInvalid(100_000)],
    [
      "fewer units than the tier before",
      [
        { min: 50, price: 100 },
        { min: 20, price: 90 },
      ],
      "priceTiers.1.min",
      t.notAscending,
    ],
    [
      "the same units as the tier before",
      [
        { min: 50, price: 100 },
        { min: 50, price: 90 },
      ],
      "priceTiers.1.min",
      t.notAscending,
    ],
    [
      "a price not below the tier before",
      [
        { min: 50, price: 100 },
        { min: 100, price: 100 },
      ],
      "priceTiers.1.price",
      t.notCheaper,
    ],
    ["the list price itself", [{ min: 50, price: 129 }], "priceTiers.0.price", t.notBelowList("$129")],
    ["above the list price", [{ min: 50, price: 130 }], "priceTiers.0.price", t.notBelowList("$129")],
    [
      "too many",
      Array.from({ length: MAX_PRICE_TIERS + 1 }, (_, i) => ({ min: 10 + i, price: 120 - i })),
      "priceTiers",
      t.tooMany(MAX_PRICE_TIERS),
    ],
    ["not a list", "50:22", "priceTiers", t.invalid],
  ])("are refused when %s: 400 at the tier, nothing stored", async (_case, priceTiers, path, message) => {
    const before = await productCount();
    const res = await addProduct({ ...valid, priceTiers });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toContainEqual({ path, message });
    expect(await productCount()).toBe(before);
  });

  it("are changed, and removed, by a PATCH, each change logged", async () => {
    const product: Product = (await addProduct(valid)).json();
    const res = await patchProduct(product.id, { priceTiers: TIERS });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ...product, priceTiers: TIERS, archivedAt: null });
    expect((await ctx.app.inject({ url: `/api/products/${product.id}` })).json().priceTiers).toEqual(TIERS);
    expect((await logged(product.id, "product.updated"))[0]?.changes).toEqual({ priceTiers: [[], TIERS] });

    const cleared = await patchProduct(product.id, { priceTiers: [] });
    expect(cleared.json().priceTiers).toEqual([]);
    expect(await storedTiers(product.id)).toEqual([]);
  });

  it("must stay below the price as stored: new tiers alone at or above it are refused", async () => {
    const product: Product = (await addProduct({ ...valid, price: 25 })).json();
    const res = await patchProduct(product.id, {
      priceTiers: [
        { min: 50, price: 22 },
        { min: 100, price: 19 },
      ],
    });
    expect(res.statusCode).toBe(200);
    const above = await patchProduct(product.id, { priceTiers: [{ min: 20, price: 25 }] });
    expect(above.statusCode).toBe(400);
    expect(above.json()).toMatchObject({
      detail: t.notBelowList("$25"),
      errors: [{ path: "priceTiers.0.price", message: t.notBelowList("$25") }],
    });
    expect(await storedTiers(product.id)).toEqual([
      { min: 50, price: 22 },
      { min: 100, price: 19 },
    ]);
  });

  it("hold a new price alone: one at or below the highest tier is refused; with new tiers it is not", async () => {
    const product: Product = (
      await addProduct({ ...valid, price: 25, priceTiers: [{ min: 50, price: 22 }] })
    ).json();
    for (const price of [22, 20]) {
      const res = await patchProduct(product.id, { price });
      expect(res.statusCode, String(price)).toBe(400);
      expect(res.json().errors).toEqual([{ path: "price", message: t.priceNotAboveTiers("$22") }]);
    }
    expect((await patchProduct(product.id, { price: 23 })).statusCode).toBe(200);
    // Lower both at once: checked against each other, not against what is stored.
    const both = await patchProduct(product.id, { price: 20, priceTiers: [{ min: 50, price: 18 }] });
    expect(both.statusCode).toBe(200);
    expect(both.json()).toMatchObject({ price: 20, priceTiers: [{ min: 50, price: 18 }] });
    const bad = await patchProduct(product.id, { price: 18, priceTiers: [{ min: 50, price: 18 }] });
    expect(bad.json().errors).toContainEqual({ path: "priceTiers.0.price", message: t.notBelowList("$18") });
    const [row] = await ctx.database.db.select().from(products).where(eq(products.id, product.id));
    expect(row).toMatchObject({ price: 20, priceTiers: [{ min: 50, price: 18 }] });
  });

  it("are the admin's: a customer's PATCH of them is refused", async () => {
    const product: Product = (await addProduct(valid)).json();
    expect((await patchProduct(product.id, { priceTiers: TIERS }, customer.cookie)).statusCode).toBe(403);
    expect(await storedTiers(product.id)).toEqual([]);
  });
});
