import type { Readable } from "node:stream";
import { sql } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import { CATALOG_CSV_COLUMNS } from "../../../shared/catalog-csv.js";
import type { Database } from "../../db/client.js";
import { products } from "../../db/schema/index.js";
import { cell, csvLine, csvStream, quote, quoted } from "../../lib/csv.js";

/**
 * The catalog on sale as CSV, in the import's columns (so a downloaded file, edited, imports back),
 * by SKU. Archived products are left out: they are not sold, so not restocked or repriced (the
 * import still updates one named by its SKU, and it stays archived). Read in keyset batches on
 * product_sku_idx, each line written by PostgreSQL with the cells of every export of the shop
 * (lib/csv.ts: quoted, formula-safe), and sent only as fast as the client takes it, so memory
 * stays flat at any size of catalog.
 */
const EXPORT_BATCH = 1_000;
const HEADER_LINE = CATALOG_CSV_COLUMNS.map(quoted).join(",");

const LINE = csvLine([
  cell(sql`${products.sku}`),
  cell(sql`${products.name}`),
  quote(sql`${products.category}::text`),
  quote(sql`${products.price}::text`),
  quote(sql`${products.quantity}::text`),
  cell(sql`${products.description}`),
  // Empty for the shop's default, as the import reads it.
  quote(sql`${products.lowStockThreshold}::text`),
  cell(sql`${products.image}`),
  // Volume prices as the import reads them: "50:22;100:19", empty for none.
  quote(sql`(select string_agg((t ->> 'min') || ':' || (t ->> 'price'), ';' order by (t ->> 'min')::int)
    from jsonb_array_elements(${products.priceTiers}) as t)`),
]);

type Row = [line: string, sku: string];
const dialect = new PgDialect();

/** The catalog as a stream of CSV text; the first batch read before this returns (a 503, not a cut download). */
export async function catalogCsv(database: Database): Promise<Readable> {
  const run = async (after?: string) => {
    const built = dialect.sqlToQuery(batchQueryOf(after));
    return database.pool.query<Row>({ text: built.sql, values: built.params as unknown[], rowMode: "array" });
  };
  const first = await run();
  return csvStream(HEADER_LINE, EXPORT_BATCH, first, (last) => run(last[1]));
}

function batchQueryOf(after: string | undefined) {
  const next = after === undefined ? sql`` : sql`and ${products.sku} > ${after}`;
  return sql`select ${LINE}, ${products.sku} from ${products}
    where ${products.archivedAt} is null ${next} order by ${products.sku} limit ${EXPORT_BATCH}`;
}
