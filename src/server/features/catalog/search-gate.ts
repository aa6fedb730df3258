/** Why the gate turned work away: its line was full, or the work waited too long for its turn. */
export class GateClosed extends Error {
  constructor(readonly reason: "full" | "waited") {
    super(reason === "full" ? "too many waiting" : "waited too long");
    this.name = "GateClosed";
  }
}

export interface GateLimits {
  /** How many run at once. */
  concurrency: number;
  /** How many may wait for a turn; one more is refused at once. */
  queue: number;
  /** How long one may wait for its turn before it is refused. */
  maxWaitMs: number;
}

interface Waiter {
  start(): void;
  timer: NodeJS.Timeout;
}

/**
 * A counting semaphore with a bounded, timed line: at most `concurrency` tasks run, at most `queue`
 * wait in arrival order, and none waits longer than `maxWaitMs`. Refusals are `GateClosed` errors.
 */
export class Gate {
  private running = 0;
  private readonly line: Waiter[] = [];

  constructor(private readonly limits: GateLimits) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    await this.enter();
    try {
      return await task();
    } finally {
      this.leave();
    }
  }

  private enter(): Promise<void> {
    if (this.running < this.limits.concurrency) {
      this.running += 1;
      return Promise.resolve();
    }
    if (this.line.length >= this.limits.queue) return Promise.reject(new GateClosed("full"));
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        start: () => {
          clearTimeout(waiter.timer);
          resolve();
        },
        timer: setTimeout(() => {
          this.line.splice(this.line.indexOf(waiter), 1);
          reject(new GateClosed("waited"));
        }, this.limits.maxWaitMs),
      };
      this.line.push(waiter);
    });
  }

  /** Hands the turn to the first in line (the count of running tasks stays), or frees it. */
  private leave(): void {
    const next = this.line.shift();
    if (next) next.start();
    else this.running -= 1;
  }
}
