import { type SQL, sql } from "drizzle-orm";

/**
 * CSV cells as the shop's exports write them (the orders export, features/orders/csv.ts, and the
 * catalog's, features/catalog/csv-export.ts): RFC 4180, every cell quoted, quotes doubled, and made
 * safe for spreadsheets: a cell that a spreadsheet would read as a formula (starting with =, +, -,
 * @, a tab or a carriage return) starts with a ' instead, as OWASP advises against CSV injection.
 * Every cell is quoted, not only those holding a comma: a spreadsheet set to another list separator
 * (Excel with `;` in much of Europe) or reading tabs splits a line at those, and an unquoted
 * `safe;=1+1;@cmd` then gave it a cell `=1+1` that it evaluated (issue 28). PostgreSQL writes each
 * line, so the server handles one string per row.
 */

export const BOM = "\uFEFF";
export const CRLF = "\r\n";

/** A text the server writes as one quoted cell, quotes doubled (a header's). */
export const quoted = (text: string) => `"${text.replaceAll('"', '""')}"`;

/** Any value as a quoted cell, quotes doubled; null is an empty one (""). */
export function quote(value: SQL): SQL {
  return sql`'"' || replace(coalesce(${value}, ''), '"', '""') || '"'`;
}

/**
 * A text column as a cell: formula-like text gets a leading ', then the cell is quoted. The tab
 * and CR in the pattern are those characters themselves (this is a JavaScript template).
 */
export function cell(value: SQL): SQL {
  return quote(sql`(case when ${value} ~ '^[-=+@\t\r]' then '''' || ${value} else ${value} end)`);
}

/** The cells of one line, joined by commas and ended with CRLF. */
export function csvLine(cells: SQL[]): SQL {
  return sql`${sql.join(cells, sql` || ',' || `)} || ${CRLF}`;
}
