import { Readable } from "node:stream";
import { type SQL, sql } from "drizzle-orm";
import type { FastifyReply } from "fastify";
import type pg from "pg";
import { z } from "zod";

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

const BOM = "\uFEFF";
const CRLF = "\r\n";

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

/** A moment as ISO 8601 in UTC, to the millisecond; null stays null (an empty cell). */
export function utc(moment: SQL): SQL {
  return sql`to_char(${moment} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
}

/** A column of an enum written as its label (the messages module's text for each value). */
export function labelled(value: SQL, labels: Record<string, string>): SQL {
  return sql`(case ${value} ${sql.join(
    Object.entries(labels).map(([key, label]) => sql`when ${key} then ${label}`),
    sql` `,
  )} end)`;
}

/** The cells of one line, joined by commas and ended with CRLF. */
export function csvLine(cells: SQL[]): SQL {
  return sql`${sql.join(cells, sql` || ',' || `)} || ${CRLF}`;
}

/** A row of an export's batch: its line, written by PostgreSQL, then the keys to read on after it. */
export type LineRow = [line: string, ...keys: string[]];

/**
 * An export as a stream: the BOM and the header line, then each batch's lines as one string; the
 * next batch (`next`, after the last row of this one) is read only once the client has taken this
 * one, so one batch waits at most, whatever the size of the export. A batch shorter than
 * `batchSize` is the last.
 */
export function csvStream<R extends LineRow>(
  headerLine: string,
  batchSize: number,
  first: pg.QueryArrayResult<R>,
  next: (last: R) => Promise<pg.QueryArrayResult<R>>,
): Readable {
  async function* lines(): AsyncGenerator<string> {
    yield `${BOM}${headerLine}${CRLF}`;
    let answer: pg.QueryArrayResult<R> | undefined = first;
    while (answer) {
      const rows: R[] = answer.rows;
      // node-postgres keeps each query, its answer included, in the closure of its query_timeout
      // timer (db/client.ts), and V8 keeps that closure in its old generation: rows left in the
      // answer would pile up there until a full collection (over 100 MB for a million orders).
      // Taken out of it, they die young.
      answer.rows = [];
      answer = undefined;
      const last = rows.at(-1);
      if (!last) return;
      yield rows.map(([line]) => line).join("");
      if (rows.length < batchSize) return;
      answer = await next(last);
    }
  }
  return Readable.from(lines(), { highWaterMark: 1 });
}

/**
 * An export's 200 answer for the OpenAPI document: CSV text, sent as a stream (which Fastify never
 * serializes, so the schema only describes it).
 */
export const csvAnswer = (description: string) => ({
  description,
  content: { "text/csv": { schema: z.instanceof(Readable).meta({ type: "string" }) } },
});

/** Sends an export as a download named `gearhouse-<name>-<today, UTC>.csv`. */
export function sendCsv(reply: FastifyReply, name: string, csv: Readable) {
  const day = new Date().toISOString().slice(0, 10);
  return reply
    .header("content-disposition", `attachment; filename="gearhouse-${name}-${day}.csv"`)
    .type("text/csv; charset=utf-8")
    .send(csv);
}
