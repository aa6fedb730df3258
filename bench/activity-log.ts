// bench:scale's activity log (issue 32): as many entries as orders (1,000,000 at the largest size),
// by 20 admins (one of them, the auditor, made a twentieth), over every action, naming orders and
// products, a minute apart up to now; one product is named by a thousandth of them. Seeded in SQL
// straight into the table: the log is append-only, so a plain insert is all it takes.
import type pg from "pg";
import { encodeCursor } from "../src/server/lib/paging.js";
import { ACTIVITY_ACTIONS } from "../src/shared/activity.js";

const ACTIVITY_ADMINS = 20;
/** The email of admin `n` of the bench's activity log. */
export const benchAdmin = (n: number) => `bench.admin.${n % ACTIVITY_ADMINS}@example.com`;
/** The product a thousandth of the entries name. */
export const ACTIVITY_PRODUCT = "00000000-0000-4000-8000-00000000a11d";

/** Adds `count` entries, in batches of 100,000 rows, then analyzes the table. */
export async function seedActivity(client: pg.Client, count: number): Promise<void> {
  const batch = 100_000;
  const actions = `array[${ACTIVITY_ACTIONS.map((a) => `'${a}'`).join(",")}]`;
  for (let done = 0; done < count; done += batch) {
    const n = Math.min(batch, count - done);
    await client.query(
      `insert into activity_log (created_at, actor_email, action, target_type, target_id, changes, request_id, address)
       select now() - make_interval(mins => $1 - g), 'bench.admin.' || (g % ${ACTIVITY_ADMINS}) || '@example.com',
              (${actions})[1 + g % ${ACTIVITY_ACTIONS.length}],
              case when g % 1000 = 0 then 'product' else 'order' end,
              case when g % 1000 = 0 then '${ACTIVITY_PRODUCT}' else gen_random_uuid()::text end,
              jsonb_build_object('status', jsonb_build_array('paid', 'shipped')),
              'bench-' || g, '10.0.' || (g % 250) || '.' || (g % 200)
       from generate_series(1, $2::int) g`,
      [done + n + 1, n],
    );
  }
  // As autovacuum does to a table that only grows (its insert threshold, PostgreSQL 13 on): the
  // visibility map lets a count read the index alone.
  await client.query("vacuum analyze activity_log");
}

/** A cursor at the middle of the log, as the API would hand it out there. */
export async function middleActivity(client: pg.Client): Promise<string> {
  const { rows } = await client.query<{ at: string; id: string }>(
    `select created_at::text as at, id::text as id from activity_log order by created_at, id
     offset (select count(*) / 2 from activity_log) limit 1`,
  );
  const row = rows[0];
  if (!row) throw new Error("activity_log is empty");
  return encodeCursor({ at: row.at, id: row.id });
}

/** A week in the middle of the log: [from, to) as ISO instants. */
export async function middleWeek(client: pg.Client): Promise<{ from: string; to: string }> {
  const { rows } = await client.query<{ from: string; to: string }>(
    `select to_char(mid at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as from,
            to_char((mid + interval '7 days') at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as to
     from (select min(created_at) + (max(created_at) - min(created_at)) / 2 as mid from activity_log) m`,
  );
  const row = rows[0];
  if (!row) throw new Error("activity_log is empty");
  return row;
}
