import { readlinkSync } from "node:fs";
import os from "node:os";
import { Worker, type WorkerOptions } from "node:worker_threads";

/** Linux's lowest priority: a thread at it runs when no thread of normal priority wants the CPU. */
const LOWEST_PRIORITY = 19;

/**
 * A worker thread running the module `name` next to the module at `callerUrl` (its import.meta.url):
 * the built JavaScript, or, run from the sources (tests, dev: a `.ts` caller), the TypeScript
 * through tsx's loader, which a thread does not inherit.
 */
export function workerThread(callerUrl: string, name: string, options: WorkerOptions = {}): Worker {
  const fromSources = callerUrl.endsWith(".ts");
  const file = new URL(`./${name}.${fromSources ? "ts" : "js"}`, callerUrl);
  if (!fromSources) return new Worker(file, options);
  const tsx = import.meta.resolve("tsx/esm/api");
  const boot = `import { register } from ${JSON.stringify(tsx)}; register(); await import(${JSON.stringify(file.href)});`;
  return new Worker(new URL(`data:text/javascript,${encodeURIComponent(boot)}`), options);
}

/**
 * Lowers the calling thread alone to the lowest priority: Linux keeps a nice value per thread, and
 * /proc/thread-self names the thread's id. Elsewhere the thread keeps the process's priority.
 */
export function lowerThisThread(): void {
  try {
    const tid = Number(readlinkSync("/proc/thread-self").split("/").at(-1));
    if (tid) os.setPriority(tid, LOWEST_PRIORITY);
  } catch {
    // Not Linux, or no /proc.
  }
}
