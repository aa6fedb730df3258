import { readFileSync, readlinkSync } from "node:fs";
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
export function lowerThisThread(): number | undefined {
  try {
    const tid = Number(readlinkSync("/proc/thread-self").split("/").at(-1));
    if (tid) os.setPriority(tid, LOWEST_PRIORITY);
    return tid || undefined;
  } catch {
    // Not Linux, or no /proc.
    return undefined;
  }
}

/** Linux's clock ticks a second, in which /proc counts a thread's CPU time (USER_HZ). */
const USER_HZ = 100;

/**
 * The CPU time thread `tid` of this process has used, in milliseconds (user and system, from
 * /proc/self/task/<tid>/stat); undefined where that cannot be read (not Linux, or the thread ended).
 */
function threadCpuMs(tid: number | undefined): number | undefined {
  if (!tid) return undefined;
  try {
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, "utf8");
    // The fields after the command's name, which stands in parentheses and may hold spaces.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const ticks = Number(fields[11]) + Number(fields[12]);
    return Number.isFinite(ticks) ? (ticks * 1000) / USER_HZ : undefined;
  } catch {
    return undefined;
  }
}

/** What a thread with a limit says once its modules are loaded: its id, to count its CPU time by. */
export interface ThreadReady {
  ready: true;
  tid?: number;
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
   * How much of the thread's CPU time one request may take, counted from when the thread says it is
   * ready (it posts a ThreadReady once its modules are loaded): past it, the request fails, with
   * `late(limitMs)` as the error, and the thread is ended. CPU time, not the clock's: a thread at the
   * lowest priority on a busy machine may wait long for the CPU, and that is no fault of its work
   * (where the thread's CPU time cannot be read, the clock's time counts). No limit unless set.
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
  const readiness = new WeakMap<Worker, Promise<number | undefined>>();

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
    let markReady = (_tid: number | undefined) => {};
    readiness.set(
      worker,
      new Promise<number | undefined>((resolve) => {
        markReady = resolve;
      }),
    );
    worker.on("message", (reply: ThreadReply<Answer> | ThreadReady) => {
      if ("ready" in reply) return markReady(reply.tid);
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
  /**
   * Fails request `id` if the thread, once ready, has spent the limit's CPU time without answering
   * it: looked at each time the limit's length has passed on the clock.
   */
  const watch = (worker: Worker, id: number, limit: NonNullable<RequestThreadOptions["limit"]>) => {
    let overdue: NodeJS.Timeout | undefined;
    let answered = false;
    void readiness.get(worker)?.then((tid) => {
      if (answered) return;
      const cpuAtStart = threadCpuMs(tid);
      const check = () => {
        const cpuNow = threadCpuMs(tid);
        if (cpuAtStart !== undefined && cpuNow !== undefined && cpuNow - cpuAtStart < limit.ms) {
          // Waiting for the CPU, not working past its limit: look again later.
          overdue = setTimeout(check, limit.ms).unref();
          return;
        }
        // Only this request is late, but the thread may be stuck on it: the others it holds fail
        // too (the thread's exit fails them).
        const late = pending.get(id);
        pending.delete(id);
        late?.reject(new Error(limit.late(limit.ms)));
        if (thread === worker) thread = undefined;
        void worker.terminate();
      };
      overdue = setTimeout(check, limit.ms).unref();
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
