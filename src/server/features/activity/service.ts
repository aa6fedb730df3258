import type { Readable } from "node:stream";
import { and, type ColumnBaseConfig, desc, eq, gte, inArray, lt, type SQL, sql } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import type pg from "pg";
import type {
  ActivityEntryView,
  ActivityFilter,
  ActivityPage,
  ActivityQuery,
} from "../../../shared/activity.js";
import { activityMessages } from "../../../shared/messages/activity.js";
import { pagingMessages } from "../../../shared/messages/paging.js";
import type { Database, Db } from "../../db/client.js";
import { activityLog, discountCodes, products, users } from "../../db/schema/index.js";
import { cell, csvLine, csvStream, labelled, quote, quoted, utc } from "../../lib/csv.js";
import { cursorAt, keysetPage } from "../../lib/keyset.js";
import { boundedCount, decodeCursor, UUID_ID } from "../../lib/paging.js";

/**
 * The Activity page and its CSV (docs/product.md, "Activity log"): entries newest first, by keyset
 * on (created_at, id), alone or behind one filter of actor, action or target, each served by its
 * own index of migration 0021, and a date range on the same key. A page costs what the first does
 * at a million entries (bench:scale "activity").
 */

const a = activityLog;
const key = { createdAt: a.at, id: a.id };
/** The id's digits: a bigserial, so a cursor's id is a whole number. */
const ENTRY_ID = /^[1-9][0-9]{0,18}$/;

function filterOf(filter: ActivityFilter): SQL | undefined {
  return and(
    filter.actor === undefined ? undefined : eq(a.actorEmail, filter.actor.toLowerCase()),
    filter.action === undefined ? undefined : eq(a.action, filter.action),
    filter.targetType === undefined ? undefined : eq(a.targetType, filter.targetType),
    filter.targetId === undefined ? undefined : eq(a.targetId, filter.targetId),
    filter.from === undefined ? undefined : gte(a.at, filter.from),
    filter.to === undefined ? undefined : lt(a.at, filter.to),
  );
}

const columns = {
  id: sql<string>`${a.id}::text`,
  at: a.at,
  actorId: a.actorId,
  actorEmail: a.actorEmail,
  action: a.action,
  targetType: a.targetType,
  targetId: a.targetId,
  changes: a.changes,
  requestId: a.requestId,
  address: a.address,
  userAgent: a.userAgent,
};

/** A kind of target the log names, and where its name is today (its id's form: `pattern`). */
interface NamedTarget {
  type: string;
  pattern?: RegExp;
  table: PgTable;
  id: PgColumn;
  /** A text column that is never null: the name shown. */
  name: PgColumn<ColumnBaseConfig<"string", string> & { data: string; notNull: true }>;
}

const NAMED_TARGETS: NamedTarget[] = [
  { type: "product", pattern: UUID_ID, table: products, id: products.id, name: products.name },
  { type: "user", table: users, id: users.id, name: users.email },
  {
    type: "discount_code",
    pattern: UUID_ID,
    table: discountCodes,
    id: discountCodes.id,
    name: discountCodes.code,
  },
];

/**
 * What each product, user and discount code the page names is called today: one look-up by
 * primary key for each kind, for the page's 25 rows at most. A target that is gone keeps no name.
 */
async function namesOf(db: Db, rows: { targetType: string | null; targetId: string | null }[]) {
  const names = new Map<string, string>();
  await Promise.all(
    NAMED_TARGETS.map(async ({ type, pattern, table, id, name }) => {
      const ids = [
        ...new Set(
          rows.flatMap((r) =>
            r.targetType === type && r.targetId !== null && (!pattern || pattern.test(r.targetId))
              ? [r.targetId]
              : [],
          ),
        ),
      ];
      if (ids.length === 0) return;
      const found = await db.select({ id, name }).from(table).where(inArray(id, ids));
      for (const row of found) names.set(`${type}:${row.id}`, row.name);
    }),
  );
  return names;
}

/** A page of the activity log, newest first; a forged cursor is a 400. */
export async function listActivity(db: Db, query: ActivityQuery): Promise<ActivityPage> {
  const filter = filterOf(query);
  const after = decodeCursor(query.cursor, pagingMessages.badCursor, ENTRY_ID);
  const [page, total] = await Promise.all([
    keysetPage(key, { after }, query.limit, (window, take) =>
      db
        .select({ ...columns, cursorAt: cursorAt(key) })
        .from(a)
        .where(and(filter, window.where))
        .orderBy(...window.orderBy)
        .limit(take),
    ),
    boundedCount(db, sql`from ${a}${filter ? sql` where ${filter}` : sql``}`),
  ]);
  const names = await namesOf(db, page.rows);
  const items: ActivityEntryView[] = page.rows.map(({ cursorAt: _, at, ...row }) => ({
    ...row,
    at: at.toISOString(),
    targetName: names.get(`${row.targetType}:${row.targetId}`) ?? null,
  }));
  return { items, nextCursor: page.nextCursor, total };
}

const EXPORT_BATCH = 1_000;
/** The header: the columns' texts in their order (shared/messages/activity.ts), which LINE follows. */
const HEADER_LINE = Object.values(activityMessages.csv).map(quoted).join(",");
const LINE = csvLine([
  quote(sql`${a.id}::text`),
  quote(utc(sql`${a.at}`)),
  cell(sql`${a.actorEmail}`),
  quote(labelled(sql`${a.action}`, activityMessages.actions)),
  quote(sql`${a.targetType}`),
  cell(sql`${a.targetId}`),
  cell(sql`${a.changes}::text`),
  cell(sql`${a.requestId}`),
  cell(sql`${a.address}`),
  cell(sql`${a.userAgent}`),
]);

type Row = [line: string, at: string, id: string];

function batchQuery(db: Db, filter: SQL | undefined, last: Row | undefined): pg.QueryArrayConfig {
  const query = db
    .select({ line: sql`${LINE}`, at: cursorAt(key), id: sql`${a.id}::text` })
    .from(a)
    .where(and(filter, last && sql`(${a.at}, ${a.id}) < (${last[1]}::timestamptz, ${last[2]}::bigint)`))
    .orderBy(desc(a.at), desc(a.id))
    .limit(EXPORT_BATCH)
    .toSQL();
  return { text: query.sql, values: query.params, rowMode: "array" };
}

/**
 * The entries that match, newest first, as CSV (lib/csv.ts: RFC 4180, formula-safe), read in keyset
 * batches one ahead of the client at most, so memory stays flat at a million entries.
 */
export async function activityCsv(database: Database, filter: ActivityFilter): Promise<Readable> {
  const where = filterOf(filter);
  const first: pg.QueryArrayResult<Row> = await database.pool.query(
    batchQuery(database.db, where, undefined),
  );
  return csvStream(HEADER_LINE, EXPORT_BATCH, first, (last) =>
    database.pool.query(batchQuery(database.db, where, last)),
  );
}
