import { once } from "node:events";
import { createInterface } from "node:readline";
import type { Readable, Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type pg from "pg";
import { from as copyFrom, to as copyTo } from "pg-copy-streams";

/**
 * Backups of the shop's database without pg_dump (the embedded PostgreSQL ships none, and
 * Debian's is older than the server, which pg_dump refuses): every table of the public schema
 * copied out in one REPEATABLE READ, READ ONLY transaction, so the file is one consistent snapshot
 * taken while the shop goes on taking orders (it holds no lock a writer waits for). The caller
 * compresses it.
 *
 * The format, in lines: a JSON header (`format`, `createdAt`, the `migrations` the database had,
 * the `tables`), then for each table a line `table <name>`, its rows in COPY's text format, and
 * the line `\.` (which no row can be: COPY writes a backslash as `\\`).
 *
 * A backup holds nothing to sign in with (issue 28, item 4: a reset token copied from one reset an
 * admin's password): the tables of sessions, of verification tokens (password resets, admin links)
 * and of rate-limit counters are left out, and Google's tokens in linked accounts are blanked. A
 * restored shop works; its users sign in again. It does hold personal data and password hashes
 * (docs/operations.md says how to keep it).
 */

const FORMAT = "gearhouse-backup-1";
const END_OF_TABLE = "\\.";

/**
 * Tables never written to a backup, and emptied by a restore even when an older backup has them:
 * sessions (their tokens sign in), verification (reset and admin links: their tokens are in the
 * rows as they are mailed), rate_limit (counters of a minute, worth nothing later).
 */
const LEFT_OUT_TABLES: readonly string[] = ["session", "verification", "rate_limit"];

/**
 * Columns written as NULL: the access, refresh and ID tokens a provider (Google) gave for a linked
 * account, which would act as its user there. The shop needs none to sign anyone in.
 */
const BLANKED_COLUMNS: Readonly<Record<string, readonly string[]>> = {
  account: [
    "access_token",
    "refresh_token",
    "id_token",
    "access_token_expires_at",
    "refresh_token_expires_at",
  ],
};

interface Header {
  format: string;
  createdAt: string;
  migrations: string[];
  tables: string[];
}

async function migrationsOf(client: pg.Client): Promise<string[]> {
  const result = await client.query<{ hash: string }>(
    "select hash from drizzle.__drizzle_migrations order by created_at, id",
  );
  return result.rows.map((r) => r.hash);
}

async function tablesOf(client: pg.Client): Promise<string[]> {
  const result = await client.query<{ name: string }>(
    "select tablename as name from pg_tables where schemaname = 'public' order by tablename",
  );
  return result.rows.map((r) => r.name);
}

const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;

/**
 * What COPY writes of `table`: the whole table, or, when some of its columns are blanked, every
 * column COPY would write (in its order, generated ones left out as COPY does) with those as NULL,
 * so the rows load back with `copy <table> from stdin` as any other.
 */
async function copySource(client: pg.Client, table: string): Promise<string> {
  const blanked = BLANKED_COLUMNS[table];
  if (!blanked) return quoted(table);
  const columns = await client.query<{ name: string }>(
    `select attname as name from pg_attribute
     where attrelid = $1::regclass and attnum > 0 and not attisdropped and attgenerated = ''
     order by attnum`,
    [`public.${quoted(table)}`],
  );
  const list = columns.rows.map(({ name }) =>
    blanked.includes(name) ? `null as ${quoted(name)}` : quoted(name),
  );
  return `(select ${list.join(", ")} from ${quoted(table)})`;
}

/** Writes a snapshot of the database to `out` (left open); returns the rows copied per table. */
export async function backUp(client: pg.Client, out: Writable): Promise<Record<string, number>> {
  const write = async (text: string) => {
    if (!out.write(text)) await once(out, "drain");
  };
  const rows: Record<string, number> = {};
  await client.query("begin isolation level repeatable read read only");
  try {
    const header: Header = {
      format: FORMAT,
      createdAt: new Date().toISOString(),
      migrations: await migrationsOf(client),
      tables: (await tablesOf(client)).filter((t) => !LEFT_OUT_TABLES.includes(t)),
    };
    await write(`${JSON.stringify(header)}\n`);
    for (const table of header.tables) {
      await write(`table ${table}\n`);
      const copy = client.query(copyTo(`copy ${await copySource(client, table)} to stdout`));
      let count = 0;
      for await (const chunk of copy as AsyncIterable<Buffer>) {
        for (const byte of chunk) if (byte === 10) count++;
        await write(chunk.toString("utf8"));
      }
      rows[table] = count;
      await write(`${END_OF_TABLE}\n`);
    }
    await client.query("commit");
  } catch (error) {
    await client.query("rollback").catch(() => {});
    throw error;
  }
  return rows;
}

/**
 * Loads a backup into a database migrated to the same migrations as the backup's (and otherwise
 * empty of what matters: every table is emptied first), in one transaction: triggers and foreign
 * keys are held off while the rows go in as they were, then every sequence is set past its
 * column's largest value. Refuses a backup of another schema version. Returns the rows per table.
 */
export async function restore(client: pg.Client, input: Readable): Promise<Record<string, number>> {
  const lines = createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY })[Symbol.asyncIterator]();
  const first = await lines.next();
  const header = first.done ? undefined : (JSON.parse(first.value) as Header);
  if (header?.format !== FORMAT) throw new Error("This file is not a Gearhouse backup.");
  const current = await migrationsOf(client);
  if (current.join(",") !== header.migrations.join(",")) {
    throw new Error(
      `The backup was taken at another schema version (its ${header.migrations.length} migrations are not this shop's ${current.length}). Restore it with the version of the shop that took it.`,
    );
  }
  const rows: Record<string, number> = {};
  await client.query("begin");
  try {
    // Rows go back as they were: no trigger adds to them, no foreign key is checked one by one.
    await client.query("set local session_replication_role = replica");
    const tables = await tablesOf(client);
    await client.query(`truncate ${tables.map(quoted).join(", ")}`);
    for (;;) {
      const next = await lines.next();
      if (next.done) break;
      const line = next.value;
      if (!line.startsWith("table ")) throw new Error(`Unexpected line in the backup: ${line.slice(0, 40)}`);
      const table = line.slice("table ".length);
      if (!tables.includes(table)) throw new Error(`The backup has a table this shop does not: ${table}`);
      if (LEFT_OUT_TABLES.includes(table)) {
        // A backup taken before they were left out: its sessions and tokens stay out of the shop.
        for (;;) {
          const row = await lines.next();
          if (row.done) throw new Error(`The backup ends inside table ${table}.`);
          if (row.value === END_OF_TABLE) break;
        }
        continue;
      }
      const copy = client.query(copyFrom(`copy ${quoted(table)} from stdin`));
      let count = 0;
      const done = pipeline(
        (async function* () {
          for (;;) {
            const row = await lines.next();
            if (row.done) throw new Error(`The backup ends inside table ${table}.`);
            if (row.value === END_OF_TABLE) return;
            count++;
            yield `${row.value}\n`;
          }
        })(),
        copy,
      );
      await done;
      rows[table] = count;
    }
    // Provider tokens an older backup still carried.
    for (const [table, columns] of Object.entries(BLANKED_COLUMNS)) {
      if (!tables.includes(table)) continue;
      const set = columns.map((c) => `${quoted(c)} = null`).join(", ");
      const any = columns.map((c) => `${quoted(c)} is not null`).join(" or ");
      await client.query(`update ${quoted(table)} set ${set} where ${any}`);
    }
    // Sequences (bigserial ids) past what the rows hold.
    const sequences = await client.query<{ table: string; column: string; sequence: string }>(`
      select c.relname as "table", a.attname as "column", s.relname as "sequence"
      from pg_class s
      join pg_depend d on d.objid = s.oid and d.deptype in ('a', 'i')
      join pg_class c on c.oid = d.refobjid
      join pg_attribute a on a.attrelid = c.oid and a.attnum = d.refobjsubid
      join pg_namespace n on n.oid = s.relnamespace
      where s.relkind = 'S' and n.nspname = 'public'`);
    for (const { table, column, sequence } of sequences.rows) {
      await client.query(
        `select setval(${"$1"}, coalesce((select max(${quoted(column)}) from ${quoted(table)}), 0) + 1, false)`,
        [`public.${quoted(sequence)}`],
      );
    }
    await client.query("commit");
  } catch (error) {
    await client.query("rollback").catch(() => {});
    throw error;
  }
  return rows;
}
