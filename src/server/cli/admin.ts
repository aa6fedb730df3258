// `npm run admin -- grant EMAIL` / `npm run admin -- revoke EMAIL`: changes a role from the command line.
import path from "node:path";
import { loadConfig } from "../config.js";
import { createDatabase } from "../db/client.js";
import { type EmbeddedDatabase, startEmbeddedPostgres } from "../db/embedded.js";
import { runMigrations, withSetupLock } from "../db/migrate.js";
import { userIdByEmail } from "../features/accounts/service.js";
import { setRole } from "../features/users/service.js";
import { HttpProblem } from "../lib/problem.js";

async function connectionString(
  config: ReturnType<typeof loadConfig>,
): Promise<{ url: string; embedded?: EmbeddedDatabase }> {
  if (config.databaseUrl) return { url: config.databaseUrl };
  try {
    // The shop is not running: start its embedded database for the time of the command.
    const embedded = await startEmbeddedPostgres(
      path.join(config.dataDir, "postgres"),
      config.embeddedPgPort,
    );
    return { url: embedded.url, embedded };
  } catch (error) {
    if (!/already in use/.test((error as Error).message)) throw error;
    // The shop is running and holds its embedded database: use it.
    return { url: `postgres://gearhouse:gearhouse@127.0.0.1:${config.embeddedPgPort}/gearhouse` };
  }
}

async function main() {
  const [command, email] = process.argv.slice(2);
  if ((command !== "grant" && command !== "revoke") || !email) {
    console.error("Usage: npm run admin -- grant EMAIL | revoke EMAIL");
    process.exit(2);
  }
  const config = loadConfig();
  const { url, embedded } = await connectionString(config);
  const database = createDatabase(url, { max: 2 });
  try {
    await withSetupLock(database, () => runMigrations(database));
    const id = await userIdByEmail(database.db, email);
    if (!id) {
      console.error(`No account with the email ${email}.`);
      process.exitCode = 1;
    } else {
      // The same rule as the admin screen: the last admin keeps the role.
      const user = await setRole(database.db, id, command === "grant" ? "admin" : "user");
      console.log(`${user.email} now has role ${user.role}.`);
    }
  } finally {
    await database.close();
    await embedded?.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof HttpProblem ? error.detail : error instanceof Error ? error.message : error);
  process.exit(1);
});
