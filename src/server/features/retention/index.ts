import type { FastifyBaseLogger, FastifyPluginAsync } from "fastify";
import type { Config } from "../../config.js";
import type { Db } from "../../db/client.js";
import { countRetentionRemovals } from "../../lib/metrics.js";
import { type PeriodicJob, runInBackground, startPeriodicJob } from "../../lib/periodic.js";
import {
  RETENTION_BATCH,
  removeCancelledIntents,
  removeEndedRateLimits,
  removeOldIdempotencyKeys,
  removeOldOutboxRows,
} from "./retention.js";

/**
 * Steps of one table in one pass, at most: a pass removes at most this many batches of each, so it
 * ends in bounded time however much has piled up (the next pass goes on where it stopped).
 */
const BATCHES_PER_PASS = 20;

/** One table's retention: a step removes up to RETENTION_BATCH rows and says how many. */
interface Retained {
  table: string;
  step: () => Promise<number>;
}

function retainedTables(db: Db, retention: Config["retention"]): Retained[] {
  return [
    { table: "idempotency_key", step: () => removeOldIdempotencyKeys(db) },
    { table: "mail_outbox", step: () => removeOldOutboxRows(db, { days: retention.outboxDays }) },
    {
      table: "sandbox_intent",
      step: () => removeCancelledIntents(db, { days: retention.cancelledIntentDays }),
    },
    {
      table: "rate_limit",
      step: () => removeEndedRateLimits(db, { olderThanSeconds: retention.rateLimitSeconds }),
    },
  ];
}

/**
 * One pass: each table's steps while full batches come back, up to BATCHES_PER_PASS, or until the
 * job is stopped. Returns what it removed, by table.
 */
export async function runRetentionPass(
  db: Db,
  retention: Config["retention"],
  stopped: () => boolean = () => false,
): Promise<Record<string, number>> {
  const removed: Record<string, number> = {};
  for (const { table, step } of retainedTables(db, retention)) {
    removed[table] = 0;
    for (let i = 0; i < BATCHES_PER_PASS && !stopped(); i++) {
      const n = await step();
      removed[table] += n;
      countRetentionRemovals(table, n);
      if (n < RETENTION_BATCH) break;
    }
  }
  return removed;
}

/** Runs a pass every `intervalSeconds`; a failed pass is logged and the next one tries again. */
function startRetentionJob(db: Db, retention: Config["retention"], log: FastifyBaseLogger): PeriodicJob {
  return startPeriodicJob(
    retention.intervalSeconds,
    async (stopped) => {
      try {
        const removed = await runRetentionPass(db, retention, stopped);
        if (Object.values(removed).some((n) => n > 0)) log.info({ removed }, "old rows removed");
      } catch (error) {
        log.error({ err: error }, "retention pass failed");
      }
    },
    "retention",
  );
}

/**
 * The retention job (retention.ts) on this instance, every RETENTION_INTERVAL_SECONDS (never when
 * 0), from when the server is ready until it closes. Every instance may run it: their steps skip
 * each other's rows.
 */
export const retentionPlugin: FastifyPluginAsync = async (app) => {
  runInBackground(app, {
    start: () =>
      app.config.retention.intervalSeconds > 0
        ? startRetentionJob(app.db, app.config.retention, app.log)
        : undefined,
  });
};
