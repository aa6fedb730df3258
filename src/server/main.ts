import path from "node:path";
import { buildApp } from "./app.js";
import { ConfigError, loadConfig } from "./config.js";
import { createDatabase } from "./db/client.js";
import { startEmbeddedPostgres } from "./db/embedded.js";
import { runMigrations, withSetupLock } from "./db/migrate.js";
import { seedDemoCatalog } from "./db/seed/index.js";
import { DEMO_ACCOUNTS, promoteAdminEmails, seedDemoAccounts } from "./features/accounts/service.js";

/** Starts the shop: database, migrations, demo data, HTTP server; stops it all gracefully. */
async function main() {
  const config = loadConfig();
  const say = (msg: string) => console.log(`[gearhouse] ${msg}`);

  const embedded = config.databaseUrl
    ? undefined
    : await startEmbeddedPostgres(path.join(config.dataDir, "postgres"), config.embeddedPgPort, say);
  const database = createDatabase(config.databaseUrl ?? embedded?.url ?? "");

  const stopDatabase = async () => {
    await database.close().catch(() => {});
    await embedded?.stop().catch(() => {});
  };

  let app: Awaited<ReturnType<typeof buildApp>> | undefined;
  try {
    await withSetupLock(database, async () => {
      await runMigrations(database);
      if (config.seedDemo && (await seedDemoCatalog(database.db))) say("Demo catalog created.");
    });
    const built = await buildApp(config, database);
    app = built;
    // Instances starting together would both create the missing demo accounts: one at a time.
    await withSetupLock(database, async () => {
      const promoted = await promoteAdminEmails(database.db, config.adminEmails);
      if (promoted) say(`ADMIN_EMAILS: ${promoted} account(s) have role admin.`);
      if (config.seedDemo && config.env !== "production") await seedDemoAccounts(database.db, built.auth);
    });
    if (config.seedDemo && config.env !== "production") {
      say("Demo accounts (development only):");
      for (const a of DEMO_ACCOUNTS) say(`  ${a.role.padEnd(5)}  ${a.email}  /  ${a.password}`);
    }
    await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    await app?.close().catch(() => {});
    await stopDatabase();
    throw error;
  }
  say(`Gearhouse is running at ${config.publicUrl}`);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    say(`${signal} received, shutting down.`);
    const forced = setTimeout(() => process.exit(1), 10_000);
    forced.unref();
    await app?.close().catch(() => {});
    await stopDatabase();
    process.exit(0);
  };
  process.on("SIGTERM", () => void stop("SIGTERM"));
  process.on("SIGINT", () => void stop("SIGINT"));
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) console.error(error.message);
  else console.error("[gearhouse] Failed to start:", error instanceof Error ? error.message : error);
  process.exit(1);
});
