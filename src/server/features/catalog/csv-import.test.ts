import { Readable } from "node:stream";
import { eq, inArray, isNull, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { IMPORT_MAX_REPORTED } from "../../../shared/catalog-csv.js";
import { catalogCsvMessages } from "../../../shared/messages/catalog-csv.js";
import { pricingMessages } from "../../../shared/messages/pricing.js";
import { activityLog, images, products, stockMovements } from "../../db/schema/index.js";
import { readCsv } from "../../lib/csv-reader.js";
import { setUpTestApp } from "../../test/app.js";
import { ORIGIN } from "../../test/users.js";
import { IMPORT_BATCH } from "./csv-import.js";

const ctx = setUpTestApp({}, { rateLimit: { max: 10_000, windowSeconds: 60 } });
const admin = ctx.signedUpAdmin();
const customer = ctx.signedUpUser();
const db = () => ctx.database.db;
const m = catalogCsvMessages.import.badLines;

const IMAGE = "/media/products/gale-120-high-static-pressure-fan.svg";
const HEADER = "sku,name,category,price,quantity,description,threshold,image";
const line = (sku: string, quantity = 40, price = 25, extra: Partial<Record<string, string>> = {}) =>
  [
    sku,
    extra.name ?? `Imported fan ${sku}`,
    extra.category ?? "cooling-fans",
    String(price),
    String(quantity),
    extra.description ?? '"A fan, quiet; ""silent"" even"',
    extra.threshold ?? "",
    extra.image ?? IMAGE,
  ].join(",");

const importCsv = (csv: string, apply = false, cookie = admin.cookie) =>
  ctx.app.inject({
    method: "POST",
    url: `/api/products/import?apply=${apply}`,
    headers: { origin: ORIGIN, cookie, "content-type": "text/csv" },
    payload: csv,
  });
const bySku = (skus: string[]) => db().select().from(products).where(inArray(products.sku, skus));

/** A product's stock movements, oldest first, as the ledger's history tells them. */
const movementsOf = (productId: string) =>
  db()
    .select({
      reason: stockMovements.reason,
      change: stockMovements.change,
      stockAfter: stockMovements.stockAfter,
      adminId: stockMovements.adminId,
      note: stockMovements.note,
    })
    .from(stockMovements)
    .where(eq(stockMovements.productId, productId))
    .orderBy(stockMovements.id);

/** The stock ledger's invariant, for every product: its stock is the sum of its movements. */
async function expectBalanced() {
  const off = await db().execute<{ sku: string }>(sql`
    select p.sku from ${products} p
    where p.quantity <> (select coalesce(sum(m.change), 0) from ${stockMovements} m where m.product_id = p.id)`);
  expect(off.rows).toEqual([]);
}

describe("the CSV reader", () => {
  it("reads quoted cells, doubled quotes, line breaks in cells and either line end, from any chunks", async () => {
    const text = '\uFEFFa,b\r\n"x, ""y""","two\nlines"\n\nlast,\r\n';
    for (const size of [1, 3, text.length]) {
      const chunks: string[] = [];
      for (let i = 0; i < text.length; i += size) chunks.push(text.slice(i, i + size));
      const records = [];
      for await (const r of readCsv(Readable.from(chunks), { maxBytes: 1000, maxRecordChars: 1000 }))
        records.push(r);
      expect(records).toEqual([
        { line: 1, cells: ["a", "b"] },
        { line: 2, cells: ['x, "y"', "two\nlines"] },
        { line: 5, cells: ["last", ""] },
      ]);
    }
  });
});

describe("POST /api/products/import", () => {
  it("reads an upload streamed over HTTP (the request stays a stream to the route)", async () => {
    const address = await ctx.app.listen({ port: 0, host: "127.0.0.1" });
    const body = Readable.toWeb(
      Readable.from([Buffer.from(`${HEADER}\n`), Buffer.from(`${line("STREAM-1")}\n`)]),
    ) as ReadableStream;
    const res = await fetch(`${address}/api/products/import`, {
      method: "POST",
      headers: { cookie: admin.cookie, origin: ORIGIN, "content-type": "text/csv" },
      body,
      duplex: "half",
    } as RequestInit);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ applied: false, created: 1, bad: 0 });
  });

  it("is for admins only", async () => {
    expect((await importCsv(`${HEADER}\n`, false, customer.cookie)).statusCode).toBe(403);
  });

  it("dry-runs first: counts what it would do and names each bad line, changing nothing", async () => {
    const csv = [
      HEADER,
      line("DRY-1"),
      line("DRY-2", 5, 0),
      line("dry-1"),
      "DRY-3,too,few",
      line("DRY-4", 10, 10, { category: "lamps" }),
      line("DRY-5", 10, 10, { image: "" }),
      line("DRY-6", 10, 10, { threshold: "-1" }),
      line("DRY-7", 10, 10, { image: `/api/images/${"c".repeat(64)}.webp` }),
    ].join("\r\n");
    const res = await importCsv(csv);
    expect(res.statusCode).toBe(200);
    const report = res.json();
    expect(report).toMatchObject({ applied: false, created: 1, changed: 0, unchanged: 0, bad: 7 });
    expect(report.errors.map((e: { line: number }) => e.line)).toEqual([3, 4, 5, 6, 7, 8, 9]);
    expect(report.errors[1].reason).toBe(m.skuRepeated(2));
    expect(report.errors[2].reason).toBe(m.columns(8, 3));
    expect(report.errors[4].reason).toBe(m.noImage);
    expect(report.errors[6].reason).toBe(m.imageMissing);
    expect(await bySku(["DRY-1"])).toEqual([]);
  });

  it("applies by SKU in batches, counts created, changed and unchanged, and is safe to repeat", async () => {
    const key = "d".repeat(64);
    await db()
      .insert(images)
      .values({ key, contentType: "image/webp", data: Buffer.from("x"), width: 1, height: 1, byteSize: 1 });
    const uploaded = `/api/images/${key}.webp`;
    const n = IMPORT_BATCH + 20;
    const skus = Array.from({ length: n }, (_, i) => `APPLY-${i}`);
    const first = [HEADER, ...skus.map((sku) => line(sku, 40, 25, { image: uploaded }))].join("\n");
    const applied = await importCsv(first, true);
    expect(applied.json()).toMatchObject({ applied: true, created: n, changed: 0, unchanged: 0, bad: 0 });
    expect(await bySku(skus)).toHaveLength(n);
    const [one] = await bySku(["APPLY-0"]);
    expect(one).toMatchObject({ quantity: 40, image: uploaded, description: 'A fan, quiet; "silent" even' });

    // Again: nothing to do, and no write (updated_at stays).
    const again = await importCsv(first, true);
    expect(again.json()).toMatchObject({ created: 0, changed: 0, unchanged: n, bad: 0 });
    const [still] = await bySku(["APPLY-0"]);
    expect(still?.updatedAt).toEqual(one?.updatedAt);

    // A restock of one and a new price of another, the image column left empty (kept).
    const second = [
      HEADER,
      line("APPLY-0", 99, 25, { image: "" }),
      line("apply-1", 40, 30, { image: uploaded }),
      line("APPLY-2", 40, 25, { image: uploaded }),
    ].join("\n");
    expect((await importCsv(second)).json()).toMatchObject({ created: 0, changed: 2, unchanged: 1 });
    expect((await importCsv(second, true)).json()).toMatchObject({ applied: true, changed: 2, unchanged: 1 });
    const [restocked] = await bySku(["APPLY-0"]);
    expect(restocked).toMatchObject({ quantity: 99, image: uploaded });
    const [repriced] = await bySku(["APPLY-1"]);
    expect(repriced?.price).toBe(30);
  });

  it("lists at most IMPORT_MAX_REPORTED bad lines but counts them all", async () => {
    const bad = Array.from({ length: IMPORT_MAX_REPORTED + 5 }, (_, i) => `BAD-${i},x`);
    const report = (await importCsv([HEADER, ...bad].join("\n"))).json();
    expect(report.bad).toBe(IMPORT_MAX_REPORTED + 5);
    expect(report.errors).toHaveLength(IMPORT_MAX_REPORTED);
  });

  it("refuses a file that is no import: no header, an unknown column, a quote never closed", async () => {
    expect((await importCsv("")).statusCode).toBe(400);
    expect((await importCsv("sku,name\nA,b")).json().detail).toBe(
      catalogCsvMessages.refused.header("category, price, quantity, description, threshold"),
    );
    expect((await importCsv(`${HEADER},colour\n`)).statusCode).toBe(400);
    expect((await importCsv(`${HEADER}\n"open,`)).json().detail).toBe(catalogCsvMessages.refused.quote(2));
  });

  it("records each stock change as an import movement, none when applied again: the ledger balances", async () => {
    const csv = (quantity: number, threshold: string) =>
      [HEADER, line("LEDGER-1", quantity), line("LEDGER-2", 30, 25, { threshold })].join("\n");
    expect((await importCsv(csv(10, "5"), true)).json()).toMatchObject({ created: 2, bad: 0 });
    const [one] = await bySku(["LEDGER-1"]);
    const [two] = await bySku(["LEDGER-2"]);
    // A new product's first movement is the import's, with the admin and the import's note.
    expect(await movementsOf(one?.id ?? "")).toEqual([
      {
        reason: "import",
        change: 10,
        stockAfter: 10,
        adminId: admin.id,
        note: catalogCsvMessages.ledgerNote,
      },
    ]);
    expect(two?.lowStockThreshold).toBe(5);
    await expectBalanced();

    // The same file again: nothing written, so no second movement.
    expect((await importCsv(csv(10, "5"), true)).json()).toMatchObject({ unchanged: 2, changed: 0 });
    expect(await movementsOf(one?.id ?? "")).toHaveLength(1);
    expect(await movementsOf(two?.id ?? "")).toHaveLength(1);
    await expectBalanced();

    // A restock of one, the other's threshold back to the shop's default (its stock unchanged).
    expect((await importCsv(csv(12, ""), true)).json()).toMatchObject({ changed: 2 });
    expect((await movementsOf(one?.id ?? "")).at(-1)).toMatchObject({
      reason: "import",
      change: 2,
      stockAfter: 12,
    });
    expect(await movementsOf(two?.id ?? "")).toHaveLength(1);
    expect((await bySku(["LEDGER-2"]))[0]?.lowStockThreshold).toBeNull();
    await expectBalanced();
  });

  it("writes one activity entry per applied batch, naming its SKUs; none for a dry run or no change", async () => {
    const skus = ["LOGGED-1", "LOGGED-2"];
    const csv = [HEADER, ...skus.map((sku) => line(sku))].join("\n");
    const logged = () =>
      db()
        .select()
        .from(activityLog)
        .where(
          sql`${activityLog.action} = 'stock.imported' and ${activityLog.changes}->'skus'->1 ? 'LOGGED-1'`,
        );
    await importCsv(csv);
    expect(await logged()).toHaveLength(0);
    expect((await importCsv(csv, true)).json()).toMatchObject({ created: 2 });
    await importCsv(csv, true);
    const entries = await logged();
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ actorId: admin.id, changes: { skus: [null, skus] } });
  });

  it("updates an archived product by its SKU and leaves it archived", async () => {
    await importCsv([HEADER, line("ARCHIVED-1", 10)].join("\n"), true);
    const [product] = await bySku(["ARCHIVED-1"]);
    const archived = await ctx.app.inject({
      method: "POST",
      url: `/api/products/${product?.id}/archive`,
      headers: { origin: ORIGIN, cookie: admin.cookie },
    });
    expect(archived.statusCode).toBe(200);
    expect((await importCsv([HEADER, line("ARCHIVED-1", 25)].join("\n"), true)).json()).toMatchObject({
      changed: 1,
    });
    const [after] = await bySku(["ARCHIVED-1"]);
    expect(after?.quantity).toBe(25);
    expect(after?.archivedAt).not.toBeNull();
    await expectBalanced();
  });
});

describe("GET /api/products/export.csv", () => {
  it("downloads the catalog in the import's columns, formula-safe, and imports back unchanged", async () => {
    await importCsv(
      [
        HEADER,
        line("EXPORT-1", 10, 10, { name: "=HYPERLINK(1)", threshold: "7" }),
        line("EXPORT-2", 10, 10, { name: "Archived and left out" }),
      ].join("\n"),
      true,
    );
    const [gone] = await bySku(["EXPORT-2"]);
    await db()
      .update(products)
      .set({ archivedAt: new Date() })
      .where(eq(products.id, gone?.id ?? ""));
    const res = await ctx.app.inject({ url: "/api/products/export.csv", headers: { cookie: admin.cookie } });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(
      res.body.startsWith(
        `\uFEFF${`${HEADER},price_tiers`
          .split(",")
          .map((c) => `"${c}"`)
          .join(",")}\r\n`,
      ),
    ).toBe(true);
    expect(res.body).toContain(
      `"EXPORT-1","'=HYPERLINK(1)","cooling-fans","10","10","A fan, quiet; ""silent"" even","7",`,
    );
    expect(res.body).not.toContain("EXPORT-2");
    const [count] = await db()
      .select({ n: sql<number>`count(*)::int` })
      .from(products)
      .where(isNull(products.archivedAt));
    expect(res.body.trimEnd().split("\r\n")).toHaveLength((count?.n ?? 0) + 1);
    const forbidden = await ctx.app.inject({
      url: "/api/products/export.csv",
      headers: { cookie: customer.cookie },
    });
    expect(forbidden.statusCode).toBe(403);
    // Every product without a formula-like cell reads back as itself.
    const back = res.body.replace("'=HYPERLINK(1)", "=HYPERLINK(1)");
    const report = (await importCsv(back)).json();
    expect(report).toMatchObject({ created: 0, changed: 0, bad: 0 });
  });
});

describe("volume prices by CSV (the price_tiers column)", () => {
  const t = pricingMessages.tiers;
  const TIERED = `${HEADER},price_tiers`;
  const tiered = (sku: string, price: number, tiers: string, quantity = 40) =>
    `${line(sku, quantity, price)},${tiers}`;
  const tiersOf = async (sku: string) => (await bySku([sku]))[0]?.priceTiers;

  it("reads units:price pairs, refuses each bad line as the product form would, naming its line", async () => {
    const csv = [
      TIERED,
      tiered("TIERS-1", 25, "10:24; 50 : 22;100:19;"),
      tiered("TIERS-2", 25, "50-22"),
      tiered("TIERS-3", 25, "5:20"),
      tiered("TIERS-4", 25, "50:22;100:22"),
      tiered("TIERS-5", 25, "100:19;50:22"),
      tiered("TIERS-6", 25, "50:25"),
      tiered("TIERS-7", 25, "50:22.5"),
      tiered("TIERS-8", 25, ""),
    ].join("\n");
    const report = (await importCsv(csv, true)).json();
    expect(report).toMatchObject({ applied: true, created: 2, bad: 6 });
    expect(report.errors).toEqual([
      { line: 3, reason: `price_tiers: ${m.tiersFormat}` },
      { line: 4, reason: `price_tiers: ${t.minInvalid(10, 1_000_000)}` },
      { line: 5, reason: `price_tiers: ${t.notCheaper}` },
      { line: 6, reason: `price_tiers: ${t.notAscending}` },
      { line: 7, reason: `price_tiers: ${t.notBelowList("$25")}` },
      { line: 8, reason: `price_tiers: ${m.tiersFormat}` },
    ]);
    expect(await tiersOf("TIERS-1")).toEqual([
      { min: 10, price: 24 },
      { min: 50, price: 22 },
      { min: 100, price: 19 },
    ]);
    expect(await tiersOf("TIERS-8")).toEqual([]);
    expect(await bySku(["TIERS-2", "TIERS-6"])).toEqual([]);
  });

  it("changes, clears, or (the column left out, as in older files) keeps a product's tiers", async () => {
    const sku = "TIERS-KEEP";
    expect((await importCsv([TIERED, tiered(sku, 25, "50:22")].join("\n"), true)).json()).toMatchObject({
      created: 1,
    });
    // The same tiers again: nothing to do; new ones: a change.
    expect((await importCsv([TIERED, tiered(sku, 25, "50:22")].join("\n"), true)).json()).toMatchObject({
      unchanged: 1,
    });
    expect((await importCsv([TIERED, tiered(sku, 25, "50:21;90:20")].join("\n"), true)).json()).toMatchObject(
      {
        changed: 1,
      },
    );
    expect(await tiersOf(sku)).toEqual([
      { min: 50, price: 21 },
      { min: 90, price: 20 },
    ]);

    // An older file without the column: left alone, or restocked with the tiers kept.
    expect((await importCsv([HEADER, line(sku, 40, 25)].join("\n"), true)).json()).toMatchObject({
      unchanged: 1,
    });
    expect((await importCsv([HEADER, line(sku, 70, 24)].join("\n"), true)).json()).toMatchObject({
      changed: 1,
    });
    const [restocked] = await bySku([sku]);
    expect(restocked).toMatchObject({
      quantity: 70,
      price: 24,
      priceTiers: [
        { min: 50, price: 21 },
        { min: 90, price: 20 },
      ],
    });

    // ...but not to a price the kept tiers are not below: that line is bad, and nothing changes.
    const under = (await importCsv([HEADER, line(sku, 70, 21)].join("\n"), true)).json();
    expect(under).toMatchObject({ changed: 0, bad: 1 });
    expect(under.errors).toEqual([{ line: 2, reason: `price: ${t.priceNotAboveTiers("$21")}` }]);
    expect((await bySku([sku]))[0]?.price).toBe(24);

    // An empty cell clears them.
    expect((await importCsv([TIERED, tiered(sku, 21, "", 70)].join("\n"), true)).json()).toMatchObject({
      changed: 1,
    });
    expect(await bySku([sku])).toMatchObject([{ price: 21, priceTiers: [] }]);
  });

  it("exports them in the same form, empty for none, and the export imports back unchanged", async () => {
    await importCsv(
      [TIERED, tiered("TIERS-OUT-1", 30, "20:28;200:25"), tiered("TIERS-OUT-2", 30, "")].join("\n"),
      true,
    );
    const res = await ctx.app.inject({ url: "/api/products/export.csv", headers: { cookie: admin.cookie } });
    const lines = res.body.split("\r\n");
    expect(lines.find((l) => l.startsWith('"TIERS-OUT-1"'))).toMatch(/,"20:28;200:25"$/);
    expect(lines.find((l) => l.startsWith('"TIERS-OUT-2"'))).toMatch(/,""$/);
    // The other journeys' formula-like name read back as itself, as above.
    const report = (await importCsv(res.body.replace("'=HYPERLINK(1)", "=HYPERLINK(1)"))).json();
    expect(report).toMatchObject({ changed: 0, bad: 0 });
  });
});
