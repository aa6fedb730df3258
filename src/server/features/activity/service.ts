import type { Readable } from "node:stream";
import { and, desc, eq, gte, inArray, lt, type SQL, sql } from "drizzle-orm";
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

/**
 * What each product, user and discount code the page names is called today: one look-up by
 * primary key for each kind, for the page's 25 rows at most. A target that is gone keeps no name.
 */
async function namesOf(db: Db, rows: { targetType: string | null; targetId: string | null }[]) {
  const ids = (type: string, pattern?: RegExp) => [
    ...new Set(
      rows.flatMap((r) =>
        r.targetType === type && r.targetId !== null && (!pattern || pattern.test(r.targetId))
          ? [r.targetId]
          : [],
      ),
    ),
  ];
  const productIds = ids("product", UUID_ID);
  const userIds = ids("user");
  const codeIds = ids("discount_code", UUID_ID);
  const [productNames, userEmails, codes] = await Promise.all([
    productIds.length === 0
      ? []
      : db
          .select({ id: products.id, name: products.name })
          .from(products)
          .where(inArray(products.id, productIds)),
    userIds.length === 0
      ? []
      : db.select({ id: users.id, name: users.email }).from(users).where(inArray(users.id, userIds)),
    codeIds.length === 0
      ? []
      : db
          .select({ id: discountCodes.id, name: discountCodes.code })
          .from(discountCodes)
          .where(inArray(discountCodes.id, codeIds)),
  ]);
  const names = new Map<string, string>();
  for (const row of productNames) names.set(`product:${row.id}`, row.name);
  for (const row of userEmails) names.set(`user:${row.id}`, row.name);
  for (const row of codes) names.set(`discount_code:${row.id}`, row.name);
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
const c = activityMessages.csv;
const HEADER_LINE = [
  c.id,
  c.at,
  c.actor,
  c.action,
  c.targetType,
  c.targetId,
  c.changes,
  c.requestId,
  c.address,
  c.userAgent,
]
  .map(quoted)
  .join(",");
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
