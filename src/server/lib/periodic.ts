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
): PeriodicJob {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  let stopped = false;
  const schedule = () => {
    timer = setTimeout(() => {
      running = run(() => stopped).then(() => {
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
