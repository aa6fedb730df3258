import type { Server } from "node:http";
import path from "node:path";
import { buildApp } from "./app.js";
import { ConfigError, loadConfig } from "./config.js";
import { createDatabase } from "./db/client.js";
import { startEmbeddedPostgres } from "./db/embedded.js";
import { runMigrations, withSetupLock } from "./db/migrate.js";
import { seedDemoCatalog } from "./db/seed/index.js";
import { DEMO_ACCOUNTS, setUpAccounts } from "./features/accounts/setup.js";
import { serveMetrics } from "./lib/metrics.js";
import { startTracing, stopTracing } from "./lib/tracing.js";

/** How often the shop checks that the process that started it still runs. */
const PARENT_CHECK_MS = 500;
/**
 * How long after its grace (SHUTDOWN_GRACE_SECONDS) a stop may take to answer what is in flight and
 * close: then the shop exits 1, logging each request it cut off. A clean stop exits 0 well before.
 */
const STOP_LIMIT_AFTER_GRACE_SECONDS = 10;

/** Stops the running shop; until it runs, a request to stop waits in `stopRequested`. */
let stopWith: ((reason: string) => Promise<void>) | undefined;
let stopRequested: string | undefined;
const requestStop = (reason: string) => {
  if (stopWith) void stopWith(reason);
  else stopRequested ??= reason;
};

/**
 * SIGTERM and SIGINT stop the shop gracefully, also when they arrive while it starts (it then
 * stops once started). Started by a launcher (npm, a shell, a supervisor) that died without passing
 * a signal on, the shop would run on as an orphan, its database with it: it stops as on SIGTERM
 * instead. A process whose parent is init (a container's pid 1, systemd) has no launcher to outlive.
 */
function watchForStop() {
  process.on("SIGTERM", () => requestStop("SIGTERM received"));
  process.on("SIGINT", () => requestStop("SIGINT received"));
  const parent = process.ppid;
  if (parent <= 1) return;
  const watch = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(watch);
    requestStop(`The process that started the shop (pid ${parent}) is gone`);
  }, PARENT_CHECK_MS);
  watch.unref();
}

/** Starts the shop: database, migrations, demo data, HTTP server; stops it all gracefully. */
async function main() {
  watchForStop();
  const config = loadConfig();
  const say = (msg: string) => console.log(`[gearhouse] ${msg}`);
  // Before anything that makes spans: the database's clients and the HTTP server.
  if (await startTracing(process.env.npm_package_version ?? "0.1.0"))
    say("Traces go to the OTLP endpoint set in OTEL_EXPORTER_OTLP_ENDPOINT.");

  const embedded = config.databaseUrl
    ? undefined
    : await startEmbeddedPostgres(path.join(config.dataDir, "postgres"), config.embeddedPgPort, say);
  const database = createDatabase(config.databaseUrl ?? embedded?.url ?? "", {
    directUrl: config.databaseDirectUrl,
  });

  const stopDatabase = async () => {
    await database.close().catch(() => {});
    await embedded?.stop().catch(() => {});
  };

  let app: Awaited<ReturnType<typeof buildApp>> | undefined;
  let metricsServer: Server | undefined;
  try {
    await withSetupLock(database, async () => {
      await runMigrations(database);
      if (config.seedDemo && (await seedDemoCatalog(database.db))) say("Demo catalog created.");
    });
    const built = await buildApp(config, database);
    app = built;
    // Instances starting together would both create the missing demo accounts: one at a time.
    await withSetupLock(database, () => setUpAccounts(database.db, built.auth, config, say));
    if (config.demoAccounts) {
      say("Demo accounts (development only):");
      for (const a of DEMO_ACCOUNTS) say(`  ${a.role.padEnd(5)}  ${a.email}  /  ${a.password}`);
    }
    if (config.hostNotice) say(config.hostNotice);
    await app.listen({ port: config.port, host: config.host });
    if (config.metricsPort) {
      metricsServer = await serveMetrics(config.metricsPort, config.metricsHost, app.gauges);
      say(`Metrics at http://${config.metricsHost}:${config.metricsPort}/metrics`);
    }
  } catch (error) {
    await app?.close().catch(() => {});
    await stopDatabase();
    throw error;
  }
  say(`Gearhouse is running at ${config.publicUrl}`);

  let stopping = false;
  const stop = async (reason: string) => {
    if (stopping) return;
    stopping = true;
    say(`${reason}, shutting down.`);
    const grace = config.shutdownGraceSeconds;
    const limit = grace + STOP_LIMIT_AFTER_GRACE_SECONDS;
    // What the stop is doing, named if the limit is reached.
    let step = "draining";
    const forced = setTimeout(() => {
      const cut = app?.requestsInFlight() ?? [];
      for (const request of cut) app?.log.error(request, "request cut off: the stop reached its limit");
      say(
        cut.length > 0
          ? `Stopped at the limit of ${limit} s: ${cut.length} request(s) still being answered were cut off (logged above).`
          : `Stopped at the limit of ${limit} s while ${step}, with no request left to answer.`,
      );
      process.exit(1);
    }, limit * 1000);
    forced.unref();
    // Out of the balancer first: /readyz answers 503 while everything else is still served, each
    // answer now closing its connection, so that nothing holds the server open once it closes.
    app?.drain();
    if (app && grace > 0) {
      say(`Draining: /readyz answers 503 for ${grace} s, then the server closes.`);
      await new Promise((resolve) => setTimeout(resolve, grace * 1000));
    }
    // No new connections, 503 on kept-alive ones; the requests in flight are answered, and the
    // server is closed once the last of them is.
    step = "closing the server";
    await app?.close().catch(() => {});
    say("Every request is answered and the server closed.");
    step = "stopping the database";
    metricsServer?.close();
    await stopDatabase();
    step = "sending the last traces";
    await stopTracing().catch(() => {});
    process.exit(0);
  };
  stopWith = stop;
  if (stopRequested) void stop(stopRequested);
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) console.error(error.message);
  else console.error("[gearhouse] Failed to start:", error instanceof Error ? error.message : error);
  process.exit(1);
});
