import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect } from "vitest";
import { createDatabase, type Database } from "../db/client.js";
import { migrationsFolder } from "../db/migrate.js";
import { createTestDatabase, madeInBeforeAll } from "./app.js";

/**
 * An empty database of its own, for a test that migrates it step by step (an upgrade test): made
 * in a `beforeAll`, closed and dropped in an `afterAll`; read when used (`madeInBeforeAll`).
 */
export function setUpEmptyDatabase(): Database {
  return madeInBeforeAll(
    "The empty database",
    ["db", "pool", "direct", "pooled", "close"],
    async () => {
      const made = await createTestDatabase({ empty: true });
      return Object.assign(createDatabase(made.url, { max: 4 }), { drop: made.drop });
    },
    async (database) => {
      await database.close();
      await database.drop();
    },
  );
}

/** The committed migrations up to and including `last`, in a folder of their own. */
export function migrationsUpTo(last: string): string {
  const folder = mkdtempSync(path.join(os.tmpdir(), "gearhouse-migrations-"));
  cpSync(migrationsFolder, folder, { recursive: true });
  const journalFile = path.join(folder, "meta", "_journal.json");
  const journal = JSON.parse(readFileSync(journalFile, "utf8")) as { entries: { tag: string }[] };
  const end = journal.entries.findIndex((e) => e.tag === last);
  expect(end).toBeGreaterThan(0);
  journal.entries = journal.entries.slice(0, end + 1);
  writeFileSync(journalFile, JSON.stringify(journal));
  return folder;
}
