// `npm run db:backup [-- FILE]`: writes a consistent snapshot of the shop's database (DATABASE_URL,
// or the embedded one, the running shop's included) to FILE, by default
// DATA_DIR/backups/gearhouse-<time>.backup.gz, while the shop goes on taking orders. Restore it
// with `npm run db:restore FILE` (db/backup.ts says how both work). FILE `-` writes to standard
// output, to be encrypted on its way without a plain copy on disk:
// `npm run --silent db:backup -- - | age -r RECIPIENT > backup.gz.age` (docs/operations.md).
import { createWriteStream, mkdirSync, renameSync, statSync } from "node:fs";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { createGzip } from "node:zlib";
import pg from "pg";
import { type Config, loadConfig } from "../config.js";
import { backUp } from "../db/backup.js";
import { recordBackupRun } from "../features/activity/backup.js";
import { connectionString } from "./database.js";

async function main() {
  const config = loadConfig();
  if (process.argv[2] === "-") return toStandardOutput(config);
  const stamp = new Date().toISOString().replace(/[:.]/g, "-");
  const file = path.resolve(
    process.argv[2] ?? path.join(config.dataDir, "backups", `gearhouse-${stamp}.backup.gz`),
  );
  mkdirSync(path.dirname(file), { recursive: true });
  const { url, embedded } = await connectionString(config);
  const client = new pg.Client({ connectionString: url });
  const started = performance.now();
  try {
    await client.connect();
    // Written beside, then renamed: a backup cut short never stands as the file.
    const partial = `${file}.partial`;
    const gzip = createGzip();
    const written = pipeline(gzip, createWriteStream(partial, { mode: 0o600 }));
    const rows = await backUp(client, gzip);
    gzip.end();
    await written;
    renameSync(partial, file);
    const total = Object.values(rows).reduce((a, b) => a + b, 0);
    await recordBackupRun(client, { file, rows: total, tables: Object.keys(rows).length });
    console.log(
      `Backup written to ${file}: ${total.toLocaleString("en-US")} rows in ${Object.keys(rows).length} tables, ${(statSync(file).size / 1e6).toFixed(1)} MB, ${((performance.now() - started) / 1000).toFixed(1)} s.`,
    );
  } finally {
    await client.end().catch(() => {});
    await embedded?.stop();
  }
}

/** The backup to standard output (its report to standard error, so the stream holds the backup alone). */
async function toStandardOutput(config: Config) {
  const { url, embedded } = await connectionString(config);
  const client = new pg.Client({ connectionString: url });
  const started = performance.now();
  try {
    await client.connect();
    const gzip = createGzip();
    const written = pipeline(gzip, process.stdout);
    const rows = await backUp(client, gzip);
    gzip.end();
    await written;
    const total = Object.values(rows).reduce((a, b) => a + b, 0);
    await recordBackupRun(client, { file: "-", rows: total, tables: Object.keys(rows).length });
    console.error(
      `Backup written to standard output: ${total.toLocaleString("en-US")} rows in ${Object.keys(rows).length} tables, ${((performance.now() - started) / 1000).toFixed(1)} s.`,
    );
  } finally {
    await client.end().catch(() => {});
    await embedded?.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
