import path from "node:path";
import type { Config } from "../config.js";
import { type EmbeddedDatabase, startEmbeddedPostgres } from "../db/embedded.js";

/**
 * The database a command-line tool works on: DATABASE_URL; otherwise the shop's embedded one,
 * started for the time of the command, or, when the shop is running and holds it, the running one.
 * Stop `embedded` (when set) at the end.
 */
export async function connectionString(
  config: Config,
): Promise<{ url: string; embedded?: EmbeddedDatabase }> {
  if (config.databaseUrl) return { url: config.databaseUrl };
  try {
    const embedded = await startEmbeddedPostgres(
      path.join(config.dataDir, "postgres"),
      config.embeddedPgPort,
    );
    return { url: embedded.url, embedded };
  } catch (error) {
    if (!/already in use/.test((error as Error).message)) throw error;
    return { url: `postgres://gearhouse:gearhouse@127.0.0.1:${config.embeddedPgPort}/gearhouse` };
  }
}
