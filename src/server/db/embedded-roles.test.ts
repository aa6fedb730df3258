import { mkdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { freePort } from "../test/free-port.js";
import { queryOnce } from "../test/query-once.js";
import { TEST_DATA_DIR } from "../test/reliability/figures.js";
import { createDatabase } from "./client.js";
import {
  type EmbeddedDatabase,
  embeddedCredentialsFile,
  loadEmbeddedPostgres,
  startEmbeddedPostgres,
} from "./embedded.js";
import { runMigrations } from "./migrate.js";

/**
 * The embedded PostgreSQL's roles (issue 28, item 5): the shop connects as a role that is not a
 * superuser and owns only its database; the superuser's password is random, kept in DATA_DIR
 * (0600); and a data directory made the old way (superuser gearhouse:gearhouse owning everything)
 * is moved to this at its next start, with nothing lost.
 */

const places: string[] = [];
const running: EmbeddedDatabase[] = [];
afterAll(async () => {
  for (const server of running) await server.stop().catch(() => {});
  for (const dir of places) {
    rmSync(dir, { recursive: true, force: true });
    rmSync(embeddedCredentialsFile(dir), { force: true });
  }
});

async function place(name: string) {
  const port = await freePort();
  const dir = path.join(TEST_DATA_DIR, `${name}-${port}`, "postgres");
  places.push(path.dirname(dir));
  return { port, dir };
}

/** What the shop's role may not do, whatever it owns. */
async function expectNoSuperuser(url: string) {
  const [me] = await queryOnce<{ rolsuper: boolean; rolcreatedb: boolean; rolcreaterole: boolean }>(
    url,
    "select rolsuper, rolcreatedb, rolcreaterole from pg_roles where rolname = current_user",
  );
  expect(me).toEqual({ rolsuper: false, rolcreatedb: false, rolcreaterole: false });
  await expect(queryOnce(url, "copy (select 1) to program 'true'")).rejects.toThrow(
    /permission denied|privilege/i,
  );
  await expect(queryOnce(url, "select pg_read_file('PG_VERSION')")).rejects.toThrow(/permission denied/i);
}

/** The fixed superuser of data directories made before issue 28. */
const legacyUrl = (port: number, database = "gearhouse") =>
  `postgres://gearhouse:gearhouse@127.0.0.1:${port}/${database}`;

/**
 * A data directory made the old way (before issue 28): superuser gearhouse:gearhouse, the shop's
 * tables made by the migrations and filled as that superuser; `then` runs on it before it stops.
 */
async function oldDataDirectory(
  dir: string,
  port: number,
  then: (url: string) => Promise<void> = async () => {},
) {
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const old = new EmbeddedPostgres({
    databaseDir: dir,
    user: "gearhouse",
    password: "gearhouse",
    port,
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    initdbFlags: ["--encoding=UTF8", "--locale=C"],
    onLog: () => {},
    onError: () => {},
  });
  await old.initialise();
  await old.start();
  try {
    await queryOnce(legacyUrl(port, "postgres"), "create database gearhouse");
    const database = createDatabase(legacyUrl(port), { max: 1 });
    try {
      await runMigrations(database);
    } finally {
      await database.close();
    }
    await queryOnce(
      legacyUrl(port),
      `insert into "user" (id, name, email) values ('old-user', 'Old Customer', 'old@example.com');
         insert into product (name, description, image, price, quantity, category)
           values ('Old Keyboard', 'Made before the move', '/images/old.webp', 199, 7, 'keyboards')`,
    );
    await then(legacyUrl(port));
  } finally {
    await old.stop();
  }
}

describe("the embedded PostgreSQL's roles", () => {
  it("a new data directory: the shop's role is no superuser, owns its database, and runs the migrations", async () => {
    const { port, dir } = await place("embedded-new");
    const server = await startEmbeddedPostgres(dir, port);
    running.push(server);
    expect(statSync(embeddedCredentialsFile(dir)).mode & 0o777).toBe(0o600);
    expect(new URL(server.url).username).toBe("gearhouse_shop");

    const database = createDatabase(server.url, { max: 1 });
    try {
      await runMigrations(database);
    } finally {
      await database.close();
    }
    await expectNoSuperuser(server.url);
    // Every table is the shop's: created by it.
    const foreign = await queryOnce<{ name: string }>(
      server.url,
      `select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
       where n.nspname in ('public', 'drizzle') and pg_get_userbyid(c.relowner) <> current_user`,
    );
    expect(foreign).toEqual([]);
    // The activity log (migration 0021): its owner may only add entries and read them.
    const held = await queryOnce<{ privilege: string }>(
      server.url,
      `select p as privilege from unnest(array['SELECT', 'INSERT', 'UPDATE', 'DELETE', 'TRUNCATE']) p
       where has_table_privilege('activity_log', p)`,
    );
    expect(held.map((r) => r.privilege)).toEqual(["SELECT", "INSERT"]);
    await expect(queryOnce(server.url, "delete from activity_log")).rejects.toThrow(/permission denied/);
    // No fixed password opens it.
    await expect(queryOnce(legacyUrl(port, "postgres"), "select 1")).rejects.toThrow(
      /password authentication failed/,
    );
    // The superuser's password works (the tests and the restore use it), and a second start finds all in place.
    expect(await queryOnce(server.adminUrl, "select 1 as one")).toEqual([{ one: 1 }]);
    await server.stop();
    const again = await startEmbeddedPostgres(dir, port);
    running.push(again);
    expect(again.url).toBe(server.url);
    expect(await queryOnce(again.url, "select count(*)::int as n from product")).toEqual([{ n: 0 }]);
    await again.stop();
  });

  it("a data directory made the old way is moved over at its next start, with nothing lost", async () => {
    const { port, dir } = await place("embedded-legacy");
    await oldDataDirectory(dir, port);
    const server = await startEmbeddedPostgres(dir, port);
    running.push(server);
    // The data is there, read as the shop's role.
    expect(await queryOnce(server.url, `select name, email from "user"`)).toEqual([
      { name: "Old Customer", email: "old@example.com" },
    ]);
    expect(await queryOnce(server.url, "select name, quantity from product")).toEqual([
      { name: "Old Keyboard", quantity: 7 },
    ]);
    await expectNoSuperuser(server.url);
    // The old password opens nothing any more.
    await expect(queryOnce(legacyUrl(port), "select 1")).rejects.toThrow(/password authentication failed/);
    expect(statSync(embeddedCredentialsFile(dir)).mode & 0o777).toBe(0o600);
    // It owns what it had: the migrations run (a no-op), and it changes its tables' shape and its sequences.
    const database = createDatabase(server.url, { max: 1 });
    try {
      await runMigrations(database);
    } finally {
      await database.close();
    }
    await queryOnce(
      server.url,
      "alter table product add column moved boolean; alter table product drop column moved",
    );
    const notTheShops = await queryOnce<{ kind: string; name: string }>(
      server.url,
      `select 'relation' as kind, c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
         where n.nspname in ('public', 'drizzle') and pg_get_userbyid(c.relowner) <> current_user
       union all
       select 'type', t.typname from pg_type t join pg_namespace n on n.oid = t.typnamespace
         where n.nspname = 'public' and pg_get_userbyid(t.typowner) <> current_user
           and not exists (select 1 from pg_depend d where d.objid = t.oid and d.deptype = 'e')
       union all
       select 'function', p.proname from pg_proc p join pg_namespace n on n.oid = p.pronamespace
         where n.nspname = 'public' and pg_get_userbyid(p.proowner) <> current_user
           and not exists (select 1 from pg_depend d where d.objid = p.oid and d.deptype = 'e')
       union all
       select 'schema', nspname from pg_namespace where nspname = 'drizzle' and pg_get_userbyid(nspowner) <> current_user
       union all
       select 'database', datname from pg_database where datname = current_database() and pg_get_userbyid(datdba) <> current_user`,
    );
    expect(notTheShops).toEqual([]);
    await server.stop();
    // Moved once: the next start opens it with the generated passwords and finds it all as it was.
    const again = await startEmbeddedPostgres(dir, port);
    running.push(again);
    expect(await queryOnce(again.url, "select count(*)::int as n from product")).toEqual([{ n: 1 }]);
    await again.stop();
  });
  it("a move cut short is done again at the next start", async () => {
    const { port, dir } = await place("embedded-cut-short");
    // Killed during the move: the passwords written, the shop's role made, one table handed over,
    // the rest (the other tables, the database, the superuser's password) not yet.
    const written = {
      superuserPassword: "cut-short-superuser-0123456789",
      shopPassword: "cut-short-shop-0123456789",
    };
    mkdirSync(path.dirname(dir), { recursive: true });
    writeFileSync(embeddedCredentialsFile(dir), JSON.stringify(written), { mode: 0o600 });
    await oldDataDirectory(dir, port, async (url) => {
      await queryOnce(url, `create role gearhouse_shop login password '${written.shopPassword}'`);
      await queryOnce(url, "alter table product owner to gearhouse_shop");
    });
    const server = await startEmbeddedPostgres(dir, port);
    running.push(server);
    expect(decodeURIComponent(new URL(server.url).password)).toBe(written.shopPassword);
    expect(await queryOnce(server.url, `select email from "user"`)).toEqual([{ email: "old@example.com" }]);
    expect(await queryOnce(server.url, "select quantity from product")).toEqual([{ quantity: 7 }]);
    await expectNoSuperuser(server.url);
    await expect(queryOnce(legacyUrl(port), "select 1")).rejects.toThrow(/password authentication failed/);
    await server.stop();
  });
});
