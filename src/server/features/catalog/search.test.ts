import { inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { Category, Product, ProductList } from "../../../shared/catalog.js";
import { SEARCH_COUNT_LIMIT } from "../../../shared/constants.js";
import { CATEGORY_SEARCH_WORDS, products, searchWords } from "../../db/schema/index.js";
import { demoProducts } from "../../db/seed/demo-catalog.js";
import { setUpTestApp } from "../../test/app.js";
import { productColumns } from "./service.js";

// Relevance, typos and sorting on the demo catalog, plus a few products added here; the 503s of
// rationed searches are in search-limits.test.ts.
const ctx = setUpTestApp();

async function list(query: string): Promise<ProductList> {
  const res = await ctx.app.inject({ method: "GET", url: `/api/products?${query}` });
  expect(res.statusCode, `${query}: ${res.body}`).toBe(200);
  return res.json();
}

const names = (body: ProductList) => body.items.map((p) => p.name);
const demoNamesIn = (category: Category) =>
  demoProducts.filter((p) => p.category === category).map((p) => p.name);

async function addProducts(
  rows: { name: string; description: string; category: Category }[],
): Promise<Product[]> {
  return ctx.database.db
    .insert(products)
    .values(
      rows.map((row) => ({
        ...row,
        image: "/media/products/cyclone-120-argb-pwm-fan.svg",
        price: 30 + row.name.length,
        quantity: 500,
      })),
    )
    .returning(productColumns);
}

describe("catalog search on the demo catalog", () => {
  it('finds every keyboard for "keybord", keyboards first', async () => {
    const body = await list("search=keybord&pageSize=48");
    const keyboards = demoNamesIn("keyboards");
    expect(names(body).slice(0, keyboards.length).sort()).toEqual([...keyboards].sort());
  });

  it('finds the headphones and every headset for "headphone"', async () => {
    const body = await list("search=headphone&pageSize=48");
    expect(names(body).sort()).toEqual(demoNamesIn("headphones").sort());
    // The one whose name says it ranks above those whose category does.
    expect(names(body)[0]).toBe("Sonata Open-Back Gaming Headphones");
  });

  it('finds every mouse for "mouse" and for "mice"; a keyboard that mentions a mouse comes last', async () => {
    const mice = demoNamesIn("mice").sort();
    const byMice = await list("search=mice&pageSize=48");
    expect(names(byMice).sort()).toEqual(mice);
    const byMouse = await list("search=mouse&pageSize=48");
    expect(names(byMouse).slice(0, mice.length).sort()).toEqual(mice);
    // "…freeing desk space for wide mouse swipes": the description only.
    expect(names(byMouse).slice(mice.length)).toEqual(["Pulse 60% Compact Keyboard"]);
  });

  it("puts the search text as typed in a name first, then all its words in a name, then elsewhere", async () => {
    const body = await list(`search=${encodeURIComponent("wireless gaming mouse")}&pageSize=48`);
    expect(names(body)[0]).toBe("Kestrel Lite Wireless Gaming Mouse");
    // Every word in the name of no other product; descriptions are searched too.
    const everyWord = demoProducts.filter((p) =>
      ["wireless", "gaming", "mouse"].every((w) => `${p.name} ${p.description}`.toLowerCase().includes(w)),
    );
    expect(body.total).toBeGreaterThanOrEqual(everyWord.length);
  });

  it("finds parts of words and model numbers as typed", async () => {
    expect(names(await list("search=DDR5-60"))).toEqual(["Fluxline DDR5-6000 32 GB (2x16 GB) RGB Kit"]);
    expect(names(await list("search=65%25"))).toEqual(["Nova 65% Wireless Mechanical Keyboard"]);
    expect(names(await list("search=ergo"))).toEqual(["Anvil Pro Ergonomic Gaming Mouse"]);
  });

  it("orders a search by relevance unless another order is chosen, which then applies", async () => {
    const byDefault = await list("search=mouse&pageSize=48");
    expect(await list("search=mouse&sort=relevance&pageSize=48")).toEqual(byDefault);
    const byPrice = await list("search=mouse&sort=price-asc&pageSize=48");
    const prices = byPrice.items.map((p) => p.price);
    expect(prices).toEqual([...prices].sort((a, b) => a - b));
    expect(names(byPrice).sort()).toEqual(names(byDefault).sort());
    const byName = names(await list("search=mouse&sort=name-desc&pageSize=48"));
    expect(byName).toEqual([...byName].sort().reverse());
    const newest = await list("search=mouse&sort=newest&pageSize=48");
    expect(newest.total).toBe(byDefault.total);
  });

  it("takes relevance without a search as the list by name", async () => {
    expect(await list("sort=relevance&pageSize=48")).toEqual(await list("sort=name-asc&pageSize=48"));
  });

  it("combines a search with a category and pages without overlap", async () => {
    const body = await list("search=gaming&category=mice&pageSize=48");
    expect(body.items.length).toBeGreaterThan(1);
    expect(body.items.every((p) => p.category === "mice")).toBe(true);
    const pages = [await list("search=gaming&category=mice&pageSize=2&page=1")];
    for (let page = 2; page <= Math.ceil(body.total / 2); page++)
      pages.push(await list(`search=gaming&category=mice&pageSize=2&page=${page}`));
    expect(pages.flatMap(names)).toEqual(names(body));
  });

  it("knows the categories' words as spelt, so none is taken for a misspelling", async () => {
    const words = Object.values(CATEGORY_SEARCH_WORDS).flatMap((w) => w.split(" "));
    const known = await ctx.database.db
      .select({ word: searchWords.word })
      .from(searchWords)
      .where(inArray(searchWords.word, words));
    expect(known.map((k) => k.word).sort()).toEqual([...new Set(words)].sort());
  });

  it("finds nothing, exactly, for words the catalog does not have", async () => {
    expect(await list("search=zzqxv")).toEqual({ items: [], total: 0, totalExact: true });
    expect(await list(`search=${encodeURIComponent("the of and")}`)).toMatchObject({ total: 0 });
  });
});

describe("catalog search among added products", () => {
  it("ranks by where the words are: as typed in the name, in the name or category, in the description", async () => {
    const [stand, board, mat] = await addProducts([
      { name: "Zenith Keyboard Stand", description: "An aluminium stand.", category: "keyboards" },
      { name: "Orbit 75 Wireless Board", description: "A 75% board.", category: "keyboards" },
      { name: "Glide XL Desk Mat", description: "Room for a full-size keyboard.", category: "mice" },
    ]);
    const found = names(await list("search=keyboard&pageSize=48"));
    const typedInName = [...demoNamesIn("keyboards"), stand?.name];
    expect(found.slice(0, typedInName.length).sort()).toEqual(typedInName.sort());
    expect(found.slice(typedInName.length)).toEqual([board?.name, mat?.name]);
    // Misspelt, nothing is as typed: the names and categories come first, then the description.
    const misspelt = names(await list("search=keybaord&pageSize=48"));
    expect(misspelt.slice(0, -1).sort()).toEqual([...typedInName, board?.name].sort());
    expect(misspelt.at(-1)).toBe(mat?.name);
  });

  it(`counts up to ${SEARCH_COUNT_LIMIT} and then says "more than", paging through every match once`, async () => {
    const many = SEARCH_COUNT_LIMIT + 5;
    const lamps = await addProducts(
      Array.from({ length: many }, (_, i) => ({
        name: `Quasar Lamp ${i}`,
        description: "A desk lamp.",
        category: "cooling-fans" as const,
      })),
    );
    const mentions = await addProducts(
      ["Halo", "Rim", "Arc"].map((name) => ({
        name: `${name} Light Bar`,
        description: "Brighter than a quasar.",
        category: "cooling-fans" as const,
      })),
    );
    const first = await list("search=quasar&pageSize=48");
    expect(first).toMatchObject({ total: SEARCH_COUNT_LIMIT, totalExact: false });
    const seen: string[] = [];
    for (let page = 1; page <= Math.ceil((many + 3) / 48) + 1; page++)
      seen.push(...(await list(`search=quasar&pageSize=48&page=${page}`)).items.map((p) => p.id));
    expect(seen).toHaveLength(many + 3);
    expect(new Set(seen).size).toBe(many + 3);
    // The names first, the descriptions after.
    expect(new Set(seen.slice(0, many))).toEqual(new Set(lamps.map((p) => p.id)));
    expect(new Set(seen.slice(many))).toEqual(new Set(mentions.map((p) => p.id)));
    // By price: the same products, cheapest first.
    const cheapest = await list("search=quasar&sort=price-asc&pageSize=48");
    const prices = cheapest.items.map((p) => p.price);
    expect(prices).toEqual([...prices].sort((a, b) => a - b));
    expect(cheapest.totalExact).toBe(false);
    await ctx.database.db.delete(products).where(
      inArray(
        products.id,
        [...lamps, ...mentions].map((p) => p.id),
      ),
    );
  });

  it("finds a product by a misspelt word of it once it is added, and of its new name once renamed", async () => {
    const [added] = await addProducts([
      { name: "Nimbus Trackball", description: "A thumb trackball.", category: "mice" },
    ]);
    expect(names(await list("search=trakball"))).toEqual(["Nimbus Trackball"]);
    await ctx.database.db
      .update(products)
      .set({ name: "Nimbus Rollerball" })
      .where(inArray(products.id, [added?.id ?? ""]));
    expect(names(await list("search=rolerball"))).toEqual(["Nimbus Rollerball"]);
  });
});
