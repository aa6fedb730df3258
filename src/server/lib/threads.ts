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
function workerThread(callerUrl: string, name: string, options: WorkerOptions = {}): Worker {
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

/** A thread's answer to request `id`: what it asked for, or why the thread could not give it. */
export type ThreadReply<Answer> = ({ id: number } & Answer) | { id: number; error: string };

export interface RequestThreadOptions {
  /** The thread's module, `name` next to the module at `url` (workerThread). */
  url: string;
  name: string;
  /** What the thread does, for the error that fails its requests when it exits ("mail render"). */
  label: string;
  /** A thread with no request this long ends, giving back the memory its modules took. */
  idleExitMs: number;
  /** The thread's young generation, in MB. */
  youngGenerationMb: number;
  /**
   * How long one request may take, counted from when the thread says it is ready (it posts
   * `{ ready: true }` once its modules are loaded): a later answer fails that request, with
   * `late(limitMs)` as the error, and ends the thread. No limit unless set.
   */
  limit?: { ms: number; late(limitMs: number): string };
}

export interface RequestThread<Request, Answer> {
  /** Hands `request` to the thread, started if none runs, and waits for its answer. */
  ask(request: Request): Promise<Answer>;
  /** Ends the thread; a request after this starts it again. */
  close(): Promise<void>;
}

/**
 * A worker thread that answers requests one message each (the invoice and mail render threads): it
 * starts with the first request and ends after `idleExitMs` without one. A thread that fails or
 * exits fails the requests it held (not those of a thread started since); the caller's own retry,
 * if any, asks again. The thread keeps no process alive: the server's own handles do.
 */
export function requestThread<Request extends object, Answer extends object>(
  options: RequestThreadOptions,
): RequestThread<Request, Answer> {
  let thread: Worker | undefined;
  let idleTimer: NodeJS.Timeout | undefined;
  let nextId = 0;
  /** The requests asked and not answered, each with the thread it was handed to. */
  const pending = new Map<
    number,
    { worker: Worker; resolve(reply: ThreadReply<Answer>): void; reject(error: Error): void }
  >();
  /** Each thread's readiness: settled when it says its modules are loaded. */
  const readiness = new WeakMap<Worker, Promise<void>>();

  /** Fails the requests `worker` held. */
  const failAll = (worker: Worker, error: Error) => {
    for (const [id, waiting] of pending) {
      if (waiting.worker !== worker) continue;
      pending.delete(id);
      waiting.reject(error);
    }
  };
  const started = (): Worker => {
    if (thread) return thread;
    const worker = workerThread(options.url, options.name, {
      resourceLimits: { maxYoungGenerationSizeMb: options.youngGenerationMb },
    });
    let markReady = () => {};
    readiness.set(
      worker,
      new Promise<void>((resolve) => {
        markReady = resolve;
      }),
    );
    worker.on("message", (reply: ThreadReply<Answer> | { ready: true }) => {
      if ("ready" in reply) return markReady();
      const waiting = pending.get(reply.id);
      pending.delete(reply.id);
      waiting?.resolve(reply);
      if (pending.size === 0) idleTimer = setTimeout(() => void close(), options.idleExitMs).unref();
    });
    worker.on("error", (error) => failAll(worker, error));
    worker.on("exit", (code) => {
      if (thread === worker) thread = undefined;
      failAll(worker, new Error(`the ${options.label} thread exited (${code})`));
    });
    worker.unref();
    thread = worker;
    return worker;
  };
  const close = async () => {
    clearTimeout(idleTimer);
    const worker = thread;
    thread = undefined;
    await worker?.terminate();
  };
  /** Fails request `id` if the thread, once ready, has not answered it within the limit. */
  const watch = (worker: Worker, id: number, limit: NonNullable<RequestThreadOptions["limit"]>) => {
    let overdue: NodeJS.Timeout | undefined;
    let answered = false;
    void readiness.get(worker)?.then(() => {
      if (answered) return;
      overdue = setTimeout(() => {
        // Only this request is late, but the thread may be stuck on it: the others it holds fail
        // too (the thread's exit fails them).
        const late = pending.get(id);
        pending.delete(id);
        late?.reject(new Error(limit.late(limit.ms)));
        if (thread === worker) thread = undefined;
        void worker.terminate();
      }, limit.ms);
      overdue.unref();
    });
    return () => {
      answered = true;
      clearTimeout(overdue);
    };
  };

  return {
    ask: async (request) => {
      clearTimeout(idleTimer);
      const id = nextId++;
      let settle = () => {};
      const reply = await new Promise<ThreadReply<Answer>>((resolve, reject) => {
        const worker = started();
        pending.set(id, { worker, resolve, reject });
        worker.postMessage({ ...request, id });
        if (options.limit) settle = watch(worker, id, options.limit);
      }).finally(() => settle());
      if ("error" in reply) throw new Error(reply.error);
      return reply;
    },
    close,
  };
}
