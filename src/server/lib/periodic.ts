import type { FastifyInstance } from "fastify";
import { inSpan } from "./tracing.js";

/** A job the server runs in the background every so often (expiring holds, sweeping images). */
export interface PeriodicJob {
  /** Ends the schedule and waits for a run under way. */
  stop(): Promise<void>;
}

/**
 * Runs `run` every `intervalSeconds` inside the server, one run at a time: the next is scheduled
 * when the last has ended, so a slow run never overlaps the next. `run` is given whether the job
 * has been stopped (a long run checks it between batches) and handles its own failures. The timer
 * keeps no process alive.
 */
export function startPeriodicJob(
  intervalSeconds: number,
  run: (stopped: () => boolean) => Promise<void>,
  /** The job's name: each run is a span "job NAME" when the shop records traces (lib/tracing.ts). */
  name: string,
): PeriodicJob {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  let stopped = false;
  const schedule = () => {
    timer = setTimeout(() => {
      running = inSpan(`job ${name}`, { "gearhouse.job": name }, () => run(() => stopped)).then(() => {
        if (!stopped) schedule();
      });
    }, intervalSeconds * 1000);
    timer.unref();
  };
  schedule();
  return {
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}

/** What a background job hands `runInBackground`. */
interface Background {
  /**
   * Starts the job once the app is ready (migrations applied, the catalog listener connected);
   * undefined when it is off on this instance (its interval set to 0).
   */
  start(): PeriodicJob | undefined | Promise<PeriodicJob | undefined>;
  /** Gives back what the job holds (a worker, a spool) after it has stopped. */
  close?(): void | Promise<void>;
}

/**
 * The one way the server runs work in the background: each job or worker has one Fastify plugin,
 * its owner, registered in app.ts (never inside a routes plugin), which adds its gauges and calls
 * this once. The job starts when the app is ready and stops, a run under way awaited, when it
 * closes, before main.ts closes the database pool.
 */
export function runInBackground(app: FastifyInstance, { start, close }: Background): void {
  let job: PeriodicJob | undefined;
  app.addHook("onReady", async () => {
    job = await start();
  });
  app.addHook("onClose", async () => {
    await job?.stop();
    await close?.();
  });
}
