// `npm run db:restore FILE`: brings a backup of `npm run db:backup` back into an empty data
// directory (DATA_DIR): the embedded PostgreSQL is made there, migrated to the shop's schema, and
// the backup's rows loaded in one transaction. It refuses a data directory that holds a database
// already, and DATABASE_URL (an external database is restored with its own tools). FILE `-` reads
// the backup from standard input: `age -d -i KEY backup.gz.age | npm run --silent db:restore -- -`.
import { createReadStream, existsSync } from "node:fs";
import path from "node:path";
import { createGunzip } from "node:zlib";
import pg from "pg";
import { loadConfig } from "../config.js";
import { restore } from "../db/backup.js";
import { createDatabase } from "../db/client.js";
import { startEmbeddedPostgres } from "../db/embedded.js";
import { runMigrations } from "../db/migrate.js";

async function main() {
  const file = process.argv[2];
  if (!file) throw new Error("Usage: npm run db:restore FILE");
  const fromInput = file === "-";
  if (!fromInput && !existsSync(file)) throw new Error(`No such file: ${file}`);
  const config = loadConfig();
  if (config.databaseUrl)
    throw new Error("DATABASE_URL is set: restore an external database with its own tools (README.md).");
  const pgDir = path.join(config.dataDir, "postgres");
  if (existsSync(path.join(pgDir, "PG_VERSION")))
    throw new Error(`${pgDir} holds a database already: restore into an empty DATA_DIR.`);
  const started = performance.now();
  const embedded = await startEmbeddedPostgres(pgDir, config.embeddedPgPort, (m) => console.log(m));
  try {
    // Migrated as the shop's role, which then owns every table, as in a shop that made them itself.
    const database = createDatabase(embedded.url, { max: 1 });
    try {
      await runMigrations(database);
    } finally {
      await database.close();
    }
    // As the superuser: the restore holds triggers and foreign keys off (session_replication_role),
    // which a database owner may not. The tables stay the shop role's, as the migrations made them.
    const client = new pg.Client({ connectionString: embedded.adminUrl });
    await client.connect();
    try {
      const input = fromInput ? process.stdin : createReadStream(file);
      const rows = await restore(client, input.pipe(createGunzip()));
      const total = Object.values(rows).reduce((a, b) => a + b, 0);
      console.log(
        `Restored ${total.toLocaleString("en-US")} rows in ${Object.keys(rows).length} tables into ${pgDir} in ${((performance.now() - started) / 1000).toFixed(1)} s.`,
      );
    } finally {
      await client.end();
    }
  } finally {
    await embedded.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
