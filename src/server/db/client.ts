import { drizzle, type NodePgDatabase } from "drizzle-orm/node-postgres";
import pg from "pg";
import { traceQueries } from "../lib/tracing.js";
import * as schema from "./schema/index.js";

export type Db = NodePgDatabase<typeof schema>;
/** A transaction of Db, for work that takes part in one. */
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

export interface Database {
  db: Db;
  pool: pg.Pool;
  /**
   * How to open a connection of its own for what needs a session (LISTEN, a session's advisory
   * lock): DATABASE_DIRECT_URL when the pool goes through a pooler (PgBouncer in transaction mode),
   * otherwise the pool's own database.
   */
  direct: pg.ClientConfig;
  /** The pool goes through a transaction pooler: no named prepared statements, no session state. */
  pooled: boolean;
  close(): Promise<void>;
}

/** The databases whose pool goes through a transaction pooler (createDatabase's `directUrl`). */
const pooledDbs = new WeakSet<Db>();

/**
 * Whether `db` goes through a transaction pooler, where a statement prepared by name on one server
 * connection is unknown on the next (PgBouncer before 1.21): such a db prepares nothing by name.
 */
export function preparesByName(db: Db): boolean {
  return !pooledDbs.has(db);
}

// Counts and big sums come back as strings by default; the shop's fit in a JS number.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number.parseInt(v, 10));

/** Connecting for longer than this means the database is away: the request gets a 503 at once. */
export const CONNECT_TIMEOUT_MS = 2_000;
/**
 * How long a request may wait for a free connection while all are busy (a burst of buyers): a full
 * pool is load, not an outage. pg-pool bounds that wait and a new connection with one option, so
 * connecting keeps its own shorter bound in the client class below.
 */
const ACQUIRE_TIMEOUT_MS = 10_000;

class BoundedClient extends pg.Client {
  constructor(config?: pg.ClientConfig) {
    super({ ...config, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  }
}

/**
 * SQLSTATEs of a statement PostgreSQL rolled back because of other transactions, not because of
 * what it says: a deadlock (40P01) or a serialization failure (40001). Run again, it succeeds.
 */
export const TRANSIENT_CONFLICTS = new Set(["40P01", "40001"]);
/** How often a single statement is run in all when it meets a transient conflict. */
const STATEMENT_ATTEMPTS = 3;

function isTransientConflict(error: unknown): boolean {
  const code = (error as { code?: unknown })?.code;
  return typeof code === "string" && TRANSIENT_CONFLICTS.has(code);
}

/**
 * Runs a single statement on the pool again when PostgreSQL rolled it back for a transient conflict
 * (a booking's lock queue meeting another instance's expiry batch). Only `pool.query` is wrapped:
 * such a statement runs on its own in autocommit, so nothing of it was kept and running it again is
 * the same request. Statements of a transaction run on a checked-out client, never here: a
 * transaction that meets a conflict fails whole (a 503, plugins/errors.ts), as it must.
 */
function retryConflicts(pool: pg.Pool): void {
  const query = pool.query.bind(pool) as (...args: unknown[]) => Promise<unknown>;
  const retried = async (...args: unknown[]) => {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await query(...args);
      } catch (error) {
        if (attempt >= STATEMENT_ATTEMPTS || !isTransientConflict(error)) throw error;
        // A few milliseconds apart, at random, so the two sides of a deadlock do not meet again.
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 20 * attempt));
      }
    }
  };
  // Callback-style calls (none in the shop) keep pg-pool's own method.
  pool.query = ((...args: unknown[]) =>
    typeof args[args.length - 1] === "function" ? query(...args) : retried(...args)) as typeof pool.query;
}

/** A statement running longer is cancelled by PostgreSQL (a pooler's: the role's setting, docs/scaling.md). */
const STATEMENT_TIMEOUT_MS = 15_000;

/**
 * One pool per process; requests fail fast instead of hanging when the database is away. With
 * `directUrl`, `connectionString` is a transaction pooler's (PgBouncer) and `directUrl` the
 * database's own, for what needs a session (Database.direct).
 */
export function createDatabase(
  connectionString: string,
  options: { max?: number; directUrl?: string } = {},
): Database {
  const pooled = options.directUrl !== undefined;
  const pool = new pg.Pool({
    connectionString,
    Client: BoundedClient,
    max: options.max ?? 20,
    connectionTimeoutMillis: ACQUIRE_TIMEOUT_MS,
    idleTimeoutMillis: 30_000,
    // A startup parameter PgBouncer refuses: through it, the role's or database's own setting.
    ...(pooled ? {} : { statement_timeout: STATEMENT_TIMEOUT_MS }),
    query_timeout: 20_000,
  });
  // An idle client losing its connection (database restart) must not crash the process.
  pool.on("error", () => {});
  // Nor may a checked-out one: the pool listens to idle clients only, so a connection the server
  // ends between two statements of a transaction would emit an unhandled "error". Its next query
  // fails instead (a 503), and the pool drops the client when it is released.
  pool.on("connect", (client) => {
    client.on("error", () => {});
    // Each statement a span, when the shop records traces (lib/tracing.ts); nothing otherwise.
    traceQueries(client);
  });
  retryConflicts(pool);
  const db = drizzle(pool, { schema, casing: "snake_case" });
  if (pooled) pooledDbs.add(db);
  return {
    db,
    pool,
    direct: {
      connectionString: options.directUrl ?? connectionString,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      statement_timeout: STATEMENT_TIMEOUT_MS,
    },
    pooled,
    close: () => pool.end(),
  };
}
