import type { Readable } from "node:stream";
import { and, desc, eq, lt, sql } from "drizzle-orm";
import type pg from "pg";
import { stockMessages } from "../../../shared/messages/stock.js";
import type { Database, Db } from "../../db/client.js";
import { products, stockMovements, users } from "../../db/schema/index.js";
import { cell, csvLine, csvStream, labelled, quote, quoted, utc } from "../../lib/csv.js";
import { notFound } from "../../lib/problem.js";

/**
 * A product's stock history as CSV, newest first, made as the orders export is (lib/csv.ts): RFC 4180, every cell quoted, a cell a spreadsheet would read as a
 * formula (=, +, -, @, tab, CR) led by a ', a UTF-8 byte order mark; PostgreSQL writes each line,
 * and the server reads the ledger in keyset batches (stock_movement_product_idx), one batch ahead
 * of the client at most, so memory stays flat at a million movements.
 */

const EXPORT_BATCH = 1_000;

const c = stockMessages.csv;
const STOCK_CSV_HEADER = [c.id, c.at, c.reason, c.change, c.before, c.after, c.orderId, c.admin, c.note];
const HEADER_LINE = STOCK_CSV_HEADER.map(quoted).join(",");

const s = stockMovements;
const LINE = csvLine([
  quote(sql`${s.id}::text`),
  quote(utc(sql`${s.createdAt}`)),
  quote(labelled(sql`${s.reason}`, stockMessages.reasons)),
  // A signed number is data, not a formula: "-3" stays "-3" (its cell is never a text cell).
  quote(sql`${s.change}::text`),
  quote(sql`(${s.stockAfter} - ${s.change})::text`),
  quote(sql`${s.stockAfter}::text`),
  quote(sql`${s.orderId}::text`),
  cell(sql`${users.name}`),
  cell(sql`${s.note}`),
]);

type Row = [line: string, id: string];
type Answer = pg.QueryArrayResult<Row>;

function batchQuery(db: Db, productId: string, after: string | undefined): pg.QueryArrayConfig {
  const query = db
    .select({ line: sql`${LINE}`, id: sql`${s.id}::text` })
    .from(s)
    .leftJoin(users, eq(users.id, s.adminId))
    .where(and(eq(s.productId, productId), after === undefined ? undefined : lt(s.id, Number(after))))
    .orderBy(desc(s.id))
    .limit(EXPORT_BATCH)
    .toSQL();
  return { text: query.sql, values: query.params, rowMode: "array" };
}

/** The product's movements as a stream of CSV text; 404 when there is no such product. */
export async function stockCsv(database: Database, productId: string): Promise<Readable> {
  const [product] = await database.db
    .select({ id: products.id })
    .from(products)
    .where(eq(products.id, productId));
  if (!product) throw notFound(stockMessages.notFound);
  const batch = (after?: string) => batchQuery(database.db, productId, after);
  const first: Answer = await database.pool.query(batch());
  return csvStream(HEADER_LINE, EXPORT_BATCH, first, (last) => database.pool.query(batch(last[1])));
}
