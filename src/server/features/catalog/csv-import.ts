import { sql } from "drizzle-orm";
import { z } from "zod";
import { productInputSchema, SHOP_MEDIA_PATTERN, skuSchema } from "../../../shared/catalog.js";
import {
  CATALOG_CSV_COLUMNS,
  CATALOG_CSV_REQUIRED,
  IMPORT_MAX_LINE_CHARS,
  IMPORT_MAX_LINES,
  IMPORT_MAX_MEGABYTES,
  IMPORT_MAX_REPORTED,
  type ImportReport,
} from "../../../shared/catalog-csv.js";
import { PRODUCT_QUANTITY_MAX } from "../../../shared/constants.js";
import { formatPrice } from "../../../shared/format.js";
import { adminMessages } from "../../../shared/messages/admin.js";
import { catalogCsvMessages } from "../../../shared/messages/catalog-csv.js";
import { pricingMessages } from "../../../shared/messages/pricing.js";
import { type PriceTier, priceTiersSchema, tiersBelowPrice } from "../../../shared/pricing.js";
import { UPLOADED_IMAGE_PATTERN } from "../../../shared/uploads.js";
import type { Db, Tx } from "../../db/client.js";
import { images, products } from "../../db/schema/index.js";
import { CsvError, readCsv } from "../../lib/csv-reader.js";
import { badRequest, payloadTooLarge } from "../../lib/problem.js";
import { stockCause } from "../../lib/stock.js";
import { type Actor, recordActivity } from "../activity/index.js";
import type { CatalogChange } from "./changes.js";

/**
 * The catalog's CSV import (issue 31): a dry run says what a file would do, line by line, and
 * changes nothing; applying it creates or updates products by SKU. Both read the upload as a stream
 * (lib/csv-reader.ts) and handle it in batches of IMPORT_BATCH lines: one query reads the batch's
 * products by SKU (product_sku_idx), and, when applied, one transaction writes it, so the server
 * holds a batch at a time whatever the file's length. What grows with the file is the set of SKUs
 * seen (to name a SKU repeated further down), about 100 bytes a line: 10 MB at 100,000 lines.
 *
 * Safe to repeat: a line whose product already reads as the line says is left alone (no write, no
 * stock movement), so applying a file twice changes nothing the second time. A stock change is
 * written in the transaction that sets the stock ledger's reason to import (lib/stock.ts: the
 * trigger of migration 0018 records the movement, with the admin), and the catalog's
 * caches are told once per batch. Bad lines are left out and reported, with their line numbers.
 */

export const IMPORT_BATCH = 500;

const m = catalogCsvMessages.import.badLines;
const p = adminMessages.products;

/** One volume price of the price_tiers cell: units, a colon, whole dollars ("50:22"). */
const TIER_PAIR = /^(\d{1,9}) *: *(\d{1,9})$/;

/** Whole numbers as a spreadsheet writes them: "12", never "12.0" or "1e3". */
const wholeNumber = (message: string) =>
  z
    .string()
    .trim()
    .regex(/^\d{1,9}$/, message)
    .transform(Number);

const rowSchema = z
  .object({
    sku: skuSchema,
    name: productInputSchema.shape.name,
    category: productInputSchema.shape.category,
    price: wholeNumber(p.priceInvalid(1)).pipe(productInputSchema.shape.price),
    quantity: wholeNumber(p.quantityInvalid).pipe(productInputSchema.shape.quantity),
    description: productInputSchema.shape.description,
    threshold: z
      .string()
      .trim()
      .transform((v, ctx) => {
        if (v === "") return null;
        const n = /^\d{1,9}$/.test(v) ? Number(v) : Number.NaN;
        if (!(n <= PRODUCT_QUANTITY_MAX)) {
          ctx.addIssue({ code: "custom", message: m.thresholdInvalid(PRODUCT_QUANTITY_MAX) });
          return z.NEVER;
        }
        return n;
      }),
    image: z
      .string()
      .trim()
      .refine((v) => v === "" || UPLOADED_IMAGE_PATTERN.test(v) || SHOP_MEDIA_PATTERN.test(v), p.imageInvalid)
      .transform((v) => v || null),
    /** "50:22;100:19"; empty: none; the column left out (undefined): the product's stay as they are. */
    price_tiers: z
      .string()
      .optional()
      .transform((v, ctx) => {
        if (v === undefined) return null;
        const text = v.trim();
        if (text === "") return [];
        // A spreadsheet's stray semicolon (a trailing one) is no tier.
        const pairs = text.split(";").filter((pair) => pair.trim() !== "");
        const tiers = pairs.map((pair) => TIER_PAIR.exec(pair.trim()));
        if (tiers.some((t) => !t)) {
          ctx.addIssue({ code: "custom", message: m.tiersFormat });
          return z.NEVER;
        }
        return tiers.map((t) => ({ min: Number(t?.[1]), price: Number(t?.[2]) }));
      })
      .pipe(priceTiersSchema.nullable()),
  })
  // As the product form checks them: every volume price below the line's price.
  .superRefine((row, ctx) => {
    if (row.price_tiers && !tiersBelowPrice(row.price_tiers, row.price))
      ctx.addIssue({
        code: "custom",
        path: ["price_tiers"],
        message: pricingMessages.tiers.notBelowList(formatPrice(row.price)),
      });
  });
type Row = z.output<typeof rowSchema> & { line: number };

type Existing = {
  sku: string;
  name: string;
  category: string;
  price: number;
  quantity: number;
  description: string;
  image: string;
  threshold: number | null;
  price_tiers: PriceTier[];
};

const sameTiers = (a: readonly PriceTier[], b: readonly PriceTier[]) =>
  a.length === b.length && a.every((t, i) => t.min === b[i]?.min && t.price === b[i]?.price);

function sameAs(row: Row, product: Existing): boolean {
  return (
    product.name === row.name &&
    product.category === row.category &&
    product.price === row.price &&
    product.quantity === row.quantity &&
    product.description === row.description &&
    (row.image === null || product.image === row.image) &&
    product.threshold === row.threshold &&
    (row.price_tiers === null || sameTiers(product.price_tiers, row.price_tiers))
  );
}

/**
 * Why a line's price does not fit its product's volume prices as stored, when the line leaves them
 * as they are (no price_tiers column): a price at or below one of them; undefined when it fits.
 */
function priceBelowStoredTiers(row: Row, product: Existing | undefined): string | undefined {
  if (row.price_tiers !== null || !product || tiersBelowPrice(product.price_tiers, row.price))
    return undefined;
  const highest = Math.max(...product.price_tiers.map((t) => t.price));
  return `price: ${pricingMessages.tiers.priceNotAboveTiers(formatPrice(highest))}`;
}

class Report {
  created = 0;
  changed = 0;
  unchanged = 0;
  bad = 0;
  errors: { line: number; reason: string }[] = [];
  badLine(line: number, reason: string) {
    this.bad++;
    if (this.errors.length < IMPORT_MAX_REPORTED) this.errors.push({ line, reason });
  }
}

/** The header's columns, by position; refuses a file without every required column. */
function columnsOf(cells: string[]): (keyof Row | null)[] {
  const names = cells.map((c) => c.trim().toLowerCase());
  for (const name of names)
    if (!(CATALOG_CSV_COLUMNS as readonly string[]).includes(name))
      throw badRequest(catalogCsvMessages.refused.unknownColumn(name.slice(0, 40)));
  const missing = CATALOG_CSV_REQUIRED.filter((c) => !names.includes(c));
  if (missing.length > 0) throw badRequest(catalogCsvMessages.refused.header(missing.join(", ")));
  return names as (keyof Row)[];
}

/** The first issue of a line that fails rowSchema, named by its column. */
function reasonOf(error: z.ZodError): string {
  const issue = error.issues[0];
  return issue ? `${String(issue.path[0] ?? "")}: ${issue.message}` : "invalid";
}

/**
 * Reads `chunks` as an import and, when `apply`, applies it as `adminId`. Throws a 400 (or 413)
 * for a file that is not an import at all (no header, a quote never closed, too long).
 */
export async function importCatalog(
  db: Db,
  chunks: AsyncIterable<Buffer | string>,
  options: { apply: boolean; adminId: string; change: CatalogChange; actor?: Actor },
): Promise<ImportReport> {
  const report = new Report();
  const seen = new Map<string, number>();
  let columns: (keyof Row | null)[] | undefined;
  let batch: Row[] = [];
  let lines = 0;
  const flush = async () => {
    if (batch.length > 0) await handleBatch(db, batch, report, options);
    batch = [];
  };
  try {
    for await (const record of readCsv(chunks, {
      maxBytes: IMPORT_MAX_MEGABYTES * 1024 * 1024,
      maxRecordChars: IMPORT_MAX_LINE_CHARS,
    })) {
      if (!columns) {
        columns = columnsOf(record.cells);
        continue;
      }
      if (++lines > IMPORT_MAX_LINES)
        throw badRequest(catalogCsvMessages.refused.tooManyLines(IMPORT_MAX_LINES));
      if (record.cells.length !== columns.length) {
        report.badLine(record.line, m.columns(columns.length, record.cells.length));
        continue;
      }
      if (record.cells.some((c) => c.includes("\u0000"))) {
        report.badLine(record.line, m.nul);
        continue;
      }
      const fields: Record<string, string> = { image: "", threshold: "" };
      columns.forEach((column, i) => {
        if (column) fields[column] = record.cells[i] ?? "";
      });
      const parsed = rowSchema.safeParse(fields);
      if (!parsed.success) {
        report.badLine(record.line, reasonOf(parsed.error));
        continue;
      }
      const earlier = seen.get(parsed.data.sku);
      if (earlier !== undefined) {
        report.badLine(record.line, m.skuRepeated(earlier));
        continue;
      }
      seen.set(parsed.data.sku, record.line);
      batch.push({ ...parsed.data, line: record.line });
      if (batch.length >= IMPORT_BATCH) await flush();
    }
  } catch (error) {
    if (!(error instanceof CsvError)) throw error;
    const r = catalogCsvMessages.refused;
    if (error.kind === "tooLarge") throw payloadTooLarge(r.tooLarge(IMPORT_MAX_MEGABYTES));
    if (error.kind === "quote") throw badRequest(r.quote(error.line));
    throw badRequest(`${m.tooLong(IMPORT_MAX_LINE_CHARS)} (line ${error.line})`);
  }
  if (!columns) throw badRequest(catalogCsvMessages.refused.empty);
  await flush();
  report.errors.sort((a, b) => a.line - b.line);
  const { created, changed, unchanged, bad, errors } = report;
  return { applied: options.apply, created, changed, unchanged, bad, errors };
}

/**
 * One batch: its products read by SKU, each line counted as created, changed or unchanged, and,
 * when applied, the created and changed ones written in one transaction. Reading and writing in
 * the same transaction, the products locked (FOR UPDATE), the counts are what was written even
 * beside a booking or another import.
 */
async function handleBatch(
  db: Db,
  rows: Row[],
  report: Report,
  options: { apply: boolean; adminId: string; change: CatalogChange; actor?: Actor },
): Promise<void> {
  // `writer`: the transaction that applies the batch; none for a dry run.
  const work = async (tx: Db | Tx, writer?: Tx) => {
    const skus = rows.map((r) => r.sku);
    const lock = options.apply ? sql`for update` : sql``;
    const found = await tx.execute<Existing>(sql`
      select sku, name, category::text as category, price, quantity, description, image,
        low_stock_threshold as threshold, price_tiers
      from ${products} where sku in ${skus} ${lock}`);
    const existing = new Map(found.rows.map((row) => [row.sku, row]));
    // Uploaded images a line names must be in the shop (they may have been swept since).
    const keys = rows.flatMap((r) =>
      r.image && UPLOADED_IMAGE_PATTERN.test(r.image) ? [imageKey(r.image)] : [],
    );
    const stored = new Set<string>();
    if (keys.length > 0) {
      const have = await tx.execute<{ key: string }>(sql`select key from ${images} where key in ${keys}`);
      for (const { key } of have.rows) stored.add(key);
    }
    const writes: Row[] = [];
    for (const row of rows) {
      if (row.image && UPLOADED_IMAGE_PATTERN.test(row.image) && !stored.has(imageKey(row.image))) {
        report.badLine(row.line, m.imageMissing);
        continue;
      }
      const product = existing.get(row.sku);
      const unfit = priceBelowStoredTiers(row, product);
      if (unfit) {
        report.badLine(row.line, unfit);
        continue;
      }
      if (!product) {
        if (!row.image) {
          report.badLine(row.line, m.noImage);
          continue;
        }
        report.created++;
        writes.push(row);
      } else if (sameAs(row, product)) report.unchanged++;
      else {
        report.changed++;
        // Without the column, the tiers as stored (read under this transaction's lock).
        writes.push({ ...row, price_tiers: row.price_tiers ?? product.price_tiers });
      }
    }
    if (!writer || writes.length === 0) return;
    // The stock ledger's cause for this transaction (lib/stock.ts): the trigger of migration 0018
    // writes an import movement for each stock changed, and a new product's first movement.
    await stockCause(writer, {
      reason: "import",
      adminId: options.adminId,
      note: catalogCsvMessages.ledgerNote,
    });
    const values = sql.join(
      writes.map(
        (r) =>
          sql`(${r.sku}::text, ${r.name}::text, ${r.category}::category, ${r.price}::int, ${r.quantity}::int, ${r.description}::text, ${r.image}::text, ${r.threshold}::int, ${JSON.stringify(r.price_tiers ?? [])}::jsonb)`,
      ),
      sql`, `,
    );
    await writer.execute(sql`
      insert into ${products} as p (sku, name, category, price, quantity, description, image, low_stock_threshold, price_tiers)
      select v.sku, v.name, v.category, v.price, v.quantity, v.description, coalesce(v.image, ''), v.threshold, v.price_tiers
      from (values ${values}) as v (sku, name, category, price, quantity, description, image, threshold, price_tiers)
      on conflict (sku) do update set
        name = excluded.name, category = excluded.category, price = excluded.price,
        quantity = excluded.quantity, description = excluded.description,
        price_tiers = excluded.price_tiers,
        image = case when excluded.image = '' then p.image else excluded.image end,
        -- Empty: the shop's default (LOW_STOCK_THRESHOLD). archived_at is not set: an archived
        -- product updated by its SKU stays archived (restoring it is the admin's own act).
        low_stock_threshold = excluded.low_stock_threshold,
        updated_at = now()
      returning ${options.change()}`);
    // Each batch is a transaction of its own, so each has its entry: the SKUs it wrote.
    if (options.actor) {
      await recordActivity(writer, options.actor, {
        action: "stock.imported",
        changes: { skus: [null, writes.map((r) => r.sku)] },
      });
    }
  };
  if (options.apply) await db.transaction((tx) => work(tx, tx));
  else await work(db);
}

const imageKey = (path: string) => path.slice("/api/images/".length, -".webp".length);
