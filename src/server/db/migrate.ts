import path from "node:path";
import { fileURLToPath } from "node:url";
import { migrate } from "drizzle-orm/node-postgres/migrator";
import pg from "pg";
import type { Database } from "./client.js";

/** The committed migrations, found beside the sources or beside the build. */
export const migrationsFolder = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "../../../src/server/db/migrations",
);

/** An arbitrary constant: every instance takes this lock, so only one migrates or seeds at a time. */
const SETUP_LOCK = 4_201_977;

/** Runs `work` while holding the set-up lock, so instances starting together do not race. */
export async function withSetupLock<T>(database: Database, work: () => Promise<T>): Promise<T> {
  // A session's lock: through a transaction pooler, on a connection of its own (Database.direct).
  const direct = database.pooled ? new pg.Client(database.direct) : undefined;
  await direct?.connect();
  const client = direct ?? (await database.pool.connect());
  try {
    await client.query("select pg_advisory_lock($1)", [SETUP_LOCK]);
    return await work();
  } finally {
    await client.query("select pg_advisory_unlock($1)", [SETUP_LOCK]).catch(() => {});
    if (direct) await direct.end().catch(() => {});
    else (client as pg.PoolClient).release();
  }
}

export async function runMigrations(database: Database): Promise<void> {
  await migrate(database.db, { migrationsFolder });
}
