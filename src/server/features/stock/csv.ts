import { Readable } from "node:stream";
import { and, desc, eq, lt, type SQL, sql } from "drizzle-orm";
import type pg from "pg";
import { stockMessages } from "../../../shared/messages/stock.js";
import type { Database, Db } from "../../db/client.js";
import { products, stockMovements, users } from "../../db/schema/index.js";
import { notFound } from "../../lib/problem.js";

/**
 * A product's stock history as CSV, newest first, made as the orders export is
 * (features/orders/csv.ts): RFC 4180, every cell quoted, a cell a spreadsheet would read as a
 * formula (=, +, -, @, tab, CR) led by a ', a UTF-8 byte order mark; PostgreSQL writes each line,
 * and the server reads the ledger in keyset batches (stock_movement_product_idx), one batch ahead
 * of the client at most, so memory stays flat at a million movements.
 */

const EXPORT_BATCH = 1_000;
const BOM = "\uFEFF";
const CRLF = "\r\n";

const c = stockMessages.csv;
const STOCK_CSV_HEADER = [c.id, c.at, c.reason, c.change, c.before, c.after, c.orderId, c.admin, c.note];

const quoted = (text: string) => `"${text.replaceAll('"', '""')}"`;
const HEADER_LINE = STOCK_CSV_HEADER.map(quoted).join(",");

function quote(value: SQL): SQL {
  return sql`'"' || replace(coalesce(${value}, ''), '"', '""') || '"'`;
}

/** A text column as a cell, formula-like text led by a ' (the tab and CR are those characters). */
function cell(value: SQL): SQL {
  return quote(sql`(case when ${value} ~ '^[-=+@\t\r]' then '''' || ${value} else ${value} end)`);
}

const s = stockMovements;
const reasonLabel = sql`(case ${s.reason} ${sql.join(
  Object.entries(stockMessages.reasons).map(([reason, label]) => sql`when ${reason} then ${label}`),
  sql` `,
)} end)`;
const LINE = sql`${sql.join(
  [
    quote(sql`${s.id}::text`),
    quote(sql`to_char(${s.createdAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`),
    quote(reasonLabel),
    // A signed number is data, not a formula: "-3" stays "-3" (its cell is never a text cell).
    quote(sql`${s.change}::text`),
    quote(sql`(${s.stockAfter} - ${s.change})::text`),
    quote(sql`${s.stockAfter}::text`),
    quote(sql`${s.orderId}::text`),
    cell(sql`${users.name}`),
    cell(sql`${s.note}`),
  ],
  sql` || ',' || `,
)} || ${CRLF}`;

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
  return Readable.from(csvText(database.pool, batch, first), { highWaterMark: 1 });
}

async function* csvText(
  pool: pg.Pool,
  batch: (after: string) => pg.QueryArrayConfig,
  first: Answer,
): AsyncGenerator<string> {
  yield `${BOM}${HEADER_LINE}${CRLF}`;
  let answer: Answer | undefined = first;
  while (answer) {
    const rows: Row[] = answer.rows;
    // Taken out of the answer, the rows die young (see features/orders/csv.ts).
    answer.rows = [];
    answer = undefined;
    const last = rows.at(-1);
    if (!last) return;
    yield rows.map(([line]) => line).join("");
    if (rows.length < EXPORT_BATCH) return;
    answer = await pool.query(batch(last[1]));
  }
}
