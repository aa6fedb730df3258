import type { FastifyInstance, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import { Counter, Gauge } from "prom-client";
import type { Database } from "../db/client.js";
import { ReplicaRouter, type ReplicaState } from "../db/replicas.js";
import { runInBackground, startPeriodicJob } from "../lib/periodic.js";

/**
 * Where the reads that may be a little behind go (DATABASE_REPLICA_URL, docs/scaling.md "Read
 * replicas"): the catalog's, the admin lists' and the exports'. Every other read, and every write,
 * stays on `app.database` (the primary), so a feature reads a replica only where it asks here.
 */
interface ReadRouting {
  /**
   * The database for a read of `request` a replica may answer: a replica in use, or the primary
   * when none is, or when the request comes from someone who wrote within the last moments (the
   * PRIMARY_COOKIE), who must see their own change.
   */
  of(request: FastifyRequest): Database;
  /** A replica in use, or the primary when none is (or when `primary` says so): counted either way. */
  pick(primary?: boolean): Database;
  /** How far behind the primary, at most, a replica in use may show it (ms); 0 without replicas. */
  readonly staleMs: number;
  /** Each replica's state (/readyz); none without replicas. */
  states(): ReplicaState[];
}

declare module "fastify" {
  interface FastifyInstance {
    reads: ReadRouting;
  }
}

/**
 * Set on the answer to every write request while replicas are on: for its life, that browser's
 * reads go to the primary, so the person sees what they just did (a product they edited, their
 * own lists) whatever the replicas' lag. Its life outlasts the longest a replica in use may trail.
 */
export const PRIMARY_COOKIE = "gh_primary";
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);
const PRIMARY_COOKIE_SENT = new RegExp(`(?:^|;\\s*)${PRIMARY_COOKIE}=1(?:;|$)`);
const carriesPrimaryCookie = (request: FastifyRequest) =>
  PRIMARY_COOKIE_SENT.test(request.headers.cookie ?? "");

async function replicasPlugin(app: FastifyInstance) {
  const primary = app.database;
  const { urls, maxLagSeconds } = app.config.replicas;
  if (urls.length === 0) {
    // Off: no hook, no pool, no check; every read is the primary's.
    app.decorate("reads", { of: () => primary, pick: () => primary, staleMs: 0, states: () => [] });
    return;
  }
  const router = new ReplicaRouter(primary, urls, maxLagSeconds);
  const routed = new Counter({
    name: "gearhouse_db_reads_routed_total",
    help: "Reads a replica may answer, by where they went: replica, or primary (none in use, or the reader's own write is recent).",
    labelNames: ["target"] as const,
    registers: [app.gauges],
  });
  const toReplica = routed.labels("replica");
  const toPrimary = routed.labels("primary");
  const pick = (wantsPrimary = false): Database => {
    const replica = wantsPrimary ? undefined : router.pick();
    if (replica) toReplica.inc();
    else toPrimary.inc();
    return replica ?? primary;
  };
  app.decorate("reads", {
    of: (request: FastifyRequest) => pick(carriesPrimaryCookie(request)),
    pick,
    staleMs: router.staleMs,
    states: () => router.states(),
  });

  for (const [name, help, read] of [
    [
      "gearhouse_replica_lag_seconds",
      "Seconds a replica is behind the primary, measured in WAL at each check (NaN when it did not answer).",
      (s: ReplicaState) => s.lagSeconds ?? Number.NaN,
    ],
    [
      "gearhouse_replica_in_use",
      "1 while a replica takes reads; 0 while it is left out (unreachable, lagging past REPLICA_MAX_LAG_SECONDS, or not a standby).",
      (s: ReplicaState) => (s.inUse ? 1 : 0),
    ],
  ] as const) {
    new Gauge({
      name,
      help,
      labelNames: ["replica"] as const,
      registers: [app.gauges],
      collect() {
        for (const state of router.states()) this.set({ replica: state.name }, read(state));
      },
    });
  }

  const secure = app.config.secureCookies ? "; Secure" : "";
  const maxAge = Math.ceil(router.staleMs / 1000) + 1;
  const cookie = `${PRIMARY_COOKIE}=1; Max-Age=${maxAge}; Path=/; HttpOnly; SameSite=Lax${secure}`;
  app.addHook("onSend", async (request, reply) => {
    if (!SAFE_METHODS.has(request.method) && reply.statusCode < 400) reply.header("set-cookie", cookie);
  });

  // Checked once before the first request, so replicas take reads from the start, then regularly.
  runInBackground(app, {
    start: async () => {
      await router.check();
      return startPeriodicJob(router.checkIntervalSeconds, () => router.check(), "replica lag check");
    },
    close: () => router.close(),
  });
}

export default fp(replicasPlugin, { name: "replicas", dependencies: ["metrics"] });
