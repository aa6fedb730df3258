import { type ChildProcess, spawn } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { until } from "./until.js";

/** Debian's PgBouncer (`apt-get install pgbouncer`; .ci/run installs it). */
const PGBOUNCER = process.env.PGBOUNCER_PATH ?? "/usr/sbin/pgbouncer";

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export interface Bouncer {
  /** The database's address through PgBouncer (same user, password and database name). */
  url: string;
  /** What PgBouncer logged: a server login PostgreSQL refused shows there, not to its clients. */
  output(): string;
  stop(): Promise<void>;
}

/**
 * PgBouncer in transaction mode in front of the database at `databaseUrl`, with `poolSize` server
 * connections for all its clients (and never more to that database, whichever user asks). Started as the postgres system user when the tests run as root
 * (PgBouncer refuses root; the embedded PostgreSQL made that user).
 */
export async function startPgBouncer(databaseUrl: string, poolSize: number): Promise<Bouncer> {
  const target = new URL(databaseUrl);
  const user = decodeURIComponent(target.username);
  const password = decodeURIComponent(target.password);
  const dbname = target.pathname.slice(1);
  const port = await freePort();
  const dir = mkdtempSync(path.join(os.tmpdir(), "gearhouse-pgbouncer-"));
  chmodSync(dir, 0o755);
  const quoted = (s: string) => `"${s.replaceAll('"', '""')}"`;
  writeFileSync(path.join(dir, "users.txt"), `${quoted(user)} ${quoted(password)}\n`, { mode: 0o644 });
  writeFileSync(
    path.join(dir, "pgbouncer.ini"),
    [
      "[databases]",
      `${dbname} = host=${target.hostname} port=${target.port} dbname=${dbname}`,
      "[pgbouncer]",
      "listen_addr = 127.0.0.1",
      `listen_port = ${port}`,
      "unix_socket_dir =",
      "pool_mode = transaction",
      `default_pool_size = ${poolSize}`,
      `max_db_connections = ${poolSize}`,
      "max_client_conn = 1000",
      "auth_type = plain",
      `auth_file = ${path.join(dir, "users.txt")}`,
      "server_login_retry = 1",
      "",
    ].join("\n"),
    { mode: 0o644 },
  );
  const asRoot = process.getuid?.() === 0;
  const child: ChildProcess = spawn(
    PGBOUNCER,
    [...(asRoot ? ["-u", "postgres"] : []), path.join(dir, "pgbouncer.ini")],
    { stdio: ["ignore", "ignore", "pipe"] },
  );
  let output = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  let exited = false;
  child.once("exit", () => {
    exited = true;
  });
  const url = new URL(databaseUrl);
  url.port = String(port);
  url.hostname = "127.0.0.1";
  await until(
    "PgBouncer to take connections",
    async () => {
      if (exited) throw new Error(`PgBouncer exited: ${output}`);
      const client = new pg.Client({ connectionString: url.toString() });
      try {
        await client.connect();
        await client.query("select 1");
        return true;
      } catch {
        return false;
      } finally {
        await client.end().catch(() => {});
      }
    },
    30_000,
  );
  return {
    url: url.toString(),
    output: () => output,
    stop: async () => {
      if (!exited) {
        child.kill("SIGINT");
        await until("PgBouncer to stop", () => exited, 30_000);
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
