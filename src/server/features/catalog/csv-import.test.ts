import { Readable } from "node:stream";
import { inArray, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { IMPORT_MAX_REPORTED } from "../../../shared/catalog-csv.js";
import { catalogCsvMessages } from "../../../shared/messages/catalog-csv.js";
import { images, products } from "../../db/schema/index.js";
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

  it("sets the stock ledger's reason and admin in the transaction that writes the stock", async () => {
    // Stands in for h31b's ledger trigger (migration 0018): records what the writer set.
    await db().execute(sql`create table if not exists import_seen (reason text, admin text)`);
    await db().execute(sql`create or replace function import_seen() returns trigger language plpgsql as $$
      begin insert into import_seen values (current_setting('gearhouse.stock_reason', true),
        current_setting('gearhouse.stock_admin', true)); return null; end $$`);
    await db().execute(sql`create trigger import_seen after update of quantity on product
      for each row execute function import_seen()`);
    try {
      await importCsv([HEADER, line("LEDGER-1", 10)].join("\n"), true);
      await importCsv([HEADER, line("LEDGER-1", 12)].join("\n"), true);
      const seen = await db().execute<{ reason: string; admin: string }>(sql`select * from import_seen`);
      expect(seen.rows).toEqual([{ reason: "import", admin: admin.id }]);
    } finally {
      await db().execute(sql`drop trigger import_seen on product`);
    }
  });
});

describe("GET /api/products/export.csv", () => {
  it("downloads the catalog in the import's columns, formula-safe, and imports back unchanged", async () => {
    await importCsv([HEADER, line("EXPORT-1", 10, 10, { name: "=HYPERLINK(1)" })].join("\n"), true);
    const res = await ctx.app.inject({ url: "/api/products/export.csv", headers: { cookie: admin.cookie } });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(
      res.body.startsWith(
        `\uFEFF${HEADER.split(",")
          .map((c) => `"${c}"`)
          .join(",")}\r\n`,
      ),
    ).toBe(true);
    expect(res.body).toContain(`"EXPORT-1","'=HYPERLINK(1)","cooling-fans","10","10"`);
    const [count] = await db().select({ n: sql<number>`count(*)::int` }).from(products);
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
