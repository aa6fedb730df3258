import { withTimeout } from "../lib/timeout.js";
import { createDatabase, type Database } from "./client.js";

/**
 * Read replicas (DATABASE_REPLICA_URL, docs/scaling.md "Read replicas"): which one a read that may
 * be a little behind goes to, and which are left out.
 *
 * The lag rule. `now() - pg_last_xact_replay_timestamp()` grows on an idle primary although the
 * replica misses nothing, so the lag is measured in WAL instead: at each check the primary's
 * position (`pg_current_wal_lsn()`) is noted with the time it was read, and a replica's lag is how
 * long ago the oldest position it has not replayed yet (`pg_last_wal_replay_lsn()`) was noted; 0
 * when it has replayed the newest. A caught-up replica of an idle primary is 0 s behind; one whose
 * replay stopped grows by a second a second from the first write it misses. Positions are noted
 * once a check, so the figure is behind the truth by at most one check interval.
 */

/** A WAL position ("16/B374D848") as a number, to compare. */
export function parseLsn(lsn: string): bigint {
  const [high, low] = lsn.split("/");
  if (high === undefined || low === undefined) throw new Error(`not a WAL position: ${lsn}`);
  return (BigInt(`0x${high}`) << 32n) | BigInt(`0x${low}`);
}

/** Positions noted, at most: past this the oldest goes, and a lag beyond it reads as its age (a lower bound). */
const MAX_SAMPLES = 10_000;

/** The primary's WAL positions with when they were noted, to tell a replica's lag in seconds (the rule above). */
export class LagClock {
  private readonly samples: { lsn: bigint; at: number }[] = [];

  /** The primary's position, read at `at` (ms). */
  notePrimary(lsn: bigint, at: number): void {
    const last = this.samples.at(-1);
    if (last && lsn <= last.lsn) return;
    this.samples.push({ lsn, at });
    if (this.samples.length > MAX_SAMPLES) this.samples.shift();
  }

  /** Seconds since the oldest noted position above `replayed` was noted; 0 when there is none. */
  lagSeconds(replayed: bigint, now: number): number {
    const missed = this.samples.find((s) => s.lsn > replayed);
    return missed ? Math.max(0, now - missed.at) / 1000 : 0;
  }

  /** Forgets the positions every replica has replayed (`replayed`: the least of them). */
  forgetUpTo(replayed: bigint): void {
    // The newest stays: it is what the next check compares with.
    while (this.samples.length > 1 && (this.samples[0]?.lsn ?? replayed + 1n) <= replayed)
      this.samples.shift();
  }
}

/** Why a replica takes no reads (/readyz says it). */
export const LEFT_OUT_REASONS = ["unreachable", "lagging", "not a standby", "not checked yet"] as const;
type LeftOutReason = (typeof LEFT_OUT_REASONS)[number];

/** What the router knows of one replica, for /readyz and the metrics. */
export interface ReplicaState {
  /** host:port/database, never the password. */
  name: string;
  /** Reads go to it: it answered the last check, as a standby, within the lag limit. */
  inUse: boolean;
  /** Seconds behind the primary at the last check; null when it did not answer it. */
  lagSeconds: number | null;
  /** Why it is left out, when it is. */
  reason?: LeftOutReason;
}

interface Replica {
  state: ReplicaState;
  database: Database;
}

/** Connections of one replica's pool: reads only, and the primary keeps everything else. */
const REPLICA_POOL_SIZE = 10;

/** The replica's name for people: its address without the credentials. */
export function replicaName(url: string): string {
  const u = new URL(url);
  return `${u.hostname}:${u.port || "5432"}${u.pathname}`;
}

/** A check waits this long for a replica (or the primary) before it counts as unreachable. */
const CHECK_TIMEOUT_MS = 1_500;

/**
 * The replicas, each with a small pool of its own, checked every `checkIntervalSeconds`: those
 * that answer as standbys within `maxLagSeconds` of the primary take the reads, in turn; the
 * others are left out until they are back within it. With none in use, reads go to the primary.
 */
export class ReplicaRouter {
  private readonly replicas: Replica[];
  private readonly clock = new LagClock();
  private next = 0;
  /** How often the lag is checked: a fifth of the limit, between 0.2 s and 1 s. */
  readonly checkIntervalSeconds: number;

  constructor(
    private readonly primary: Database,
    urls: readonly string[],
    readonly maxLagSeconds: number,
    /** The clock, in milliseconds; tests pass their own. */
    private readonly now: () => number = Date.now,
  ) {
    this.replicas = urls.map((url) => ({
      state: { name: replicaName(url), inUse: false, lagSeconds: null, reason: "not checked yet" },
      database: createDatabase(url, { max: REPLICA_POOL_SIZE }),
    }));
    this.checkIntervalSeconds = Math.min(1, Math.max(0.2, maxLagSeconds / 5));
  }

  /**
   * How far behind the primary, at most, a replica in use may show it, in ms: the limit, the check
   * interval by which the measure trails the truth, and another interval between two checks.
   */
  get staleMs(): number {
    return (this.maxLagSeconds + 2 * this.checkIntervalSeconds) * 1000;
  }

  /** A replica in use, in turn; undefined when none is. */
  pick(): Database | undefined {
    for (let tried = 0; tried < this.replicas.length; tried += 1) {
      const replica = this.replicas[this.next];
      this.next = (this.next + 1) % this.replicas.length;
      if (replica?.state.inUse) return replica.database;
    }
    return undefined;
  }

  states(): ReplicaState[] {
    return this.replicas.map((r) => ({ ...r.state }));
  }

  /** Reads the primary's position, then each replica's, and takes each in or leaves it out. */
  async check(): Promise<void> {
    let primaryLsn: bigint;
    try {
      const { rows } = await withTimeout(
        this.primary.pool.query<{ lsn: string }>("select pg_current_wal_lsn()::text as lsn"),
        CHECK_TIMEOUT_MS,
      );
      primaryLsn = parseLsn(rows[0]?.lsn ?? "");
    } catch {
      // Without the primary's position no lag can be told: the replicas stay as they were.
      return;
    }
    this.clock.notePrimary(primaryLsn, this.now());
    const replayed = await Promise.all(this.replicas.map((replica) => this.checkReplica(replica)));
    const known = replayed.filter((lsn): lsn is bigint => lsn !== undefined);
    if (known.length === this.replicas.length && known.length > 0)
      // biome-ignore lint/complexity/useMathMinMax: LSNs are bigints, which Math.min cannot take.
      this.clock.forgetUpTo(known.reduce((a, b) => (a < b ? a : b)));
  }

  /** Updates one replica's state; its replayed position, when it answered as a standby. */
  private async checkReplica(replica: Replica): Promise<bigint | undefined> {
    const leaveOut = (reason: ReplicaState["reason"], lagSeconds: number | null = null) => {
      replica.state = { name: replica.state.name, inUse: false, lagSeconds, reason };
    };
    let row: { replayed: string | null } | undefined;
    try {
      const result = await withTimeout(
        replica.database.pool.query<{ replayed: string | null }>(
          // Null on a server that is not in recovery: a primary, or a replica promoted since.
          "select pg_last_wal_replay_lsn()::text as replayed",
        ),
        CHECK_TIMEOUT_MS,
      );
      row = result.rows[0];
    } catch {
      leaveOut("unreachable");
      return undefined;
    }
    if (!row?.replayed) {
      leaveOut("not a standby");
      return undefined;
    }
    const replayed = parseLsn(row.replayed);
    const lagSeconds = this.clock.lagSeconds(replayed, this.now());
    if (lagSeconds > this.maxLagSeconds) leaveOut("lagging", lagSeconds);
    else replica.state = { name: replica.state.name, inUse: true, lagSeconds };
    return replayed;
  }

  async close(): Promise<void> {
    await Promise.all(this.replicas.map((r) => r.database.close().catch(() => {})));
  }
}
