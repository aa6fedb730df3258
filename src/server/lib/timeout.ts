/**
 * `work`, or a rejection with `message` once `ms` have passed without it settling; the timer goes
 * either way. The work itself is not stopped: callers bound work whose answer they stop waiting
 * for (a readiness probe, a replica's lag check).
 */
export function withTimeout<T>(
  work: Promise<T>,
  ms: number,
  message = `no answer within ${ms} ms`,
): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    work,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(message)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}
