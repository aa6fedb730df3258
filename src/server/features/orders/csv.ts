import type { Readable } from "node:stream";
import { and, type SQL, sql } from "drizzle-orm";
import type pg from "pg";
import { adminMessages } from "../../../shared/messages/admin.js";
import { pricingMessages } from "../../../shared/messages/pricing.js";
import type { OrderFilter } from "../../../shared/orders.js";
import type { Database, Db } from "../../db/client.js";
import { orders } from "../../db/schema/index.js";
import { csvLine, csvStream, quote, quoted } from "../../lib/csv.js";
import { cursorAt, keysetWindow } from "../../lib/keyset.js";
import type { KeyCursor } from "../../lib/paging.js";
import { orderCells } from "./csv-cells.js";
import { filterCondition } from "./list.js";

/**
 * The CSV export of Manage Orders' current filter, its cells quoted and made safe for spreadsheets
 * as every export of the shop's (lib/csv.ts). A UTF-8 byte order mark lets Excel read names such as
 * Müller correctly.
 *
 * PostgreSQL writes each order's line, so the server handles one string per order rather than
 * twenty-seven values and the strings made from them: exporting 1,000,000 orders then grows its memory
 * by a few megabytes (docs/decisions/order-lists.md).
 */

/** Orders per query: the export reads the list in keyset batches, so memory stays flat at any size. */
const EXPORT_BATCH = 1_000;

const c = adminMessages.orders.csv;
/**
 * The header's cells: the shop's own texts, quoted like every other cell (HEADER_LINE). The order's
 * amounts and its buyer's company (issue 33) come after the columns a spreadsheet already reads, in
 * the order of their texts (shared/messages/pricing.ts), which LINE follows.
 */
export const CSV_HEADER = [
  c.id,
  c.placedAt,
  c.status,
  c.product,
  c.productId,
  c.quantity,
  c.unitPrice,
  c.total,
  c.customer,
  c.email,
  c.phone,
  c.address,
  c.transactionId,
  c.paidAt,
  c.shippedAt,
  c.refundedAt,
  c.expiredAt,
  c.carrier,
  c.trackingNumber,
  ...Object.values(pricingMessages.csv),
  // Last, so the columns before keep their places: the number the customer's mails and invoice name.
  adminMessages.orders.orderNumber,
];

const HEADER_LINE = CSV_HEADER.map(quoted).join(",");

const cells = orderCells;
const LINE = csvLine([
  cells.id,
  cells.placedAt,
  quote(sql`${orders.status}::text`),
  cells.productName,
  cells.productId,
  cells.quantity,
  cells.unitPrice,
  cells.totalPrice,
  cells.name,
  cells.email,
  cells.phone,
  cells.address,
  cells.transactionId,
  // The lifecycle's moments (empty until they happen), then how it was shipped.
  cells.paidAt,
  cells.shippedAt,
  cells.refundedAt,
  cells.expiredAt,
  cells.carrier,
  cells.trackingNumber,
  cells.discountCode,
  cells.discount,
  cells.net,
  cells.tax,
  cells.taxRate,
  cells.gross,
  cells.companyName,
  cells.companyTaxId,
  // Last, so the columns before keep their places.
  cells.number,
]);

/** An order's line and its cursor. */
type Row = [line: string, at: string, id: string];
type Answer = pg.QueryArrayResult<Row>;

/** The export's next EXPORT_BATCH lines, after `after` (from the top without it). */
function batchQuery(db: Db, where: SQL | undefined, after: KeyCursor | undefined): pg.QueryArrayConfig {
  const window = keysetWindow(orders, { after });
  const query = db
    .select({ line: sql`${LINE}`, at: cursorAt(orders), id: orders.id })
    .from(orders)
    .where(and(where, window.where))
    .orderBy(...window.orderBy)
    .limit(EXPORT_BATCH)
    .toSQL();
  return { text: query.sql, values: query.params, rowMode: "array" };
}

/**
 * The orders matching `filter`, newest first, as a stream of CSV text. The first batch is read
 * before this returns, so a database that is away is still a proper error answer (503), not a
 * download cut short; later batches are read only as fast as the client takes the text.
 */
export async function orderCsv(database: Database, filter: OrderFilter): Promise<Readable> {
  const where = filterCondition(filter);
  const batch = (after?: KeyCursor) => batchQuery(database.db, where, after);
  const first: Answer = await database.pool.query(batch());
  // One batch waits at most: the next is read only once the client has taken this one.
  return csvStream(HEADER_LINE, EXPORT_BATCH, first, (last) =>
    database.pool.query(batch({ at: last[1], id: last[2] })),
  );
}
