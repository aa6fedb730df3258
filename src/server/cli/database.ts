import path from "node:path";
import type { Config } from "../config.js";
import { type EmbeddedDatabase, embeddedDatabaseUrls, startEmbeddedPostgres } from "../db/embedded.js";

/**
 * The database a command-line tool works on: DATABASE_DIRECT_URL, or DATABASE_URL (a tool's dumps and
 * sessions want the database itself, not a transaction pooler in front of it); otherwise the shop's embedded one,
 * started for the time of the command, or, when the shop is running and holds it, the running one
 * (its passwords read from DATA_DIR). `url` signs in as the shop's role, like the shop.
 * Stop `embedded` (when set) at the end.
 */
export async function connectionString(
  config: Config,
): Promise<{ url: string; embedded?: EmbeddedDatabase }> {
  const external = config.databaseDirectUrl ?? config.databaseUrl;
  if (external) return { url: external };
  const pgDir = path.join(config.dataDir, "postgres");
  try {
    const embedded = await startEmbeddedPostgres(pgDir, config.embeddedPgPort);
    return { url: embedded.url, embedded };
  } catch (error) {
    if (!/already in use/.test((error as Error).message)) throw error;
    const running = embeddedDatabaseUrls(pgDir, config.embeddedPgPort);
    if (!running) throw error;
    return { url: running.url };
  }
}
