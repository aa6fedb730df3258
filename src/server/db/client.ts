import { drizzle, type NodePgDatabase } from "drizzle-orm/node-postgres";
import pg from "pg";
import * as schema from "./schema/index.js";

export type Db = NodePgDatabase<typeof schema>;
/** A transaction of Db, for work that takes part in one. */
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

export interface Database {
  db: Db;
  pool: pg.Pool;
  close(): Promise<void>;
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

/** One pool per process; requests fail fast instead of hanging when the database is away. */
export function createDatabase(connectionString: string, options: { max?: number } = {}): Database {
  const pool = new pg.Pool({
    connectionString,
    Client: BoundedClient,
    max: options.max ?? 20,
    connectionTimeoutMillis: ACQUIRE_TIMEOUT_MS,
    idleTimeoutMillis: 30_000,
    statement_timeout: 15_000,
    query_timeout: 20_000,
  });
  // An idle client losing its connection (database restart) must not crash the process.
  pool.on("error", () => {});
  // Nor may a checked-out one: the pool listens to idle clients only, so a connection the server
  // ends between two statements of a transaction would emit an unhandled "error". Its next query
  // fails instead (a 503), and the pool drops the client when it is released.
  pool.on("connect", (client) => client.on("error", () => {}));
  const db = drizzle(pool, { schema, casing: "snake_case" });
  return {
    db,
    pool,
    close: () => pool.end(),
  };
}
