import type { Worker } from "node:worker_threads";
import { workerThread } from "../../lib/threads.js";
import type { RenderReady, RenderReply, RenderRequest } from "./render-worker.js";
import type { RenderMail } from "./templates.js";

/** A thread with nothing to render this long ends, giving back the memory React took. */
const IDLE_EXIT_MS = 30_000;
/**
 * The thread's young generation, in MB: V8's default lets a thread that renders mail after mail
 * grow it to tens of MB (81 MB of RSS after 3,000 mails, 47 MB at this size), and its collections,
 * at the lowest priority, delay no request.
 */
const YOUNG_GENERATION_MB = 4;

/**
 * How long one mail may take, from being handed to a thread that is ready (its modules, React among
 * them, loaded: that takes a few hundred milliseconds, and far longer at the lowest priority on a
 * busy machine, so it is not counted) to its answer: a template that loops, or a thread wedged
 * otherwise, fails that mail (tried again after its backoff) and the thread is ended, to start
 * afresh with the next mail. A mail takes about a millisecond.
 */
const RENDER_LIMIT_MS = 10_000;

export interface MailRenderOptions {
  /** RENDER_LIMIT_MS unless set. */
  limitMs?: number;
  /** The thread's module, next to `url`: render-worker (tests name one that can be made to stall). */
  worker?: { url: string; name: string };
}

export interface MailRenderer {
  render: RenderMail;
  /** Ends the thread; a render after this starts it again. */
  close(): Promise<void>;
}

/**
 * Renders the order mails in a worker thread of the lowest priority (render-worker.ts): React and
 * the plain text of a mail take about a millisecond of CPU each time, which the server's requests
 * then never wait for (docs/decisions/order-mails.md, "Rendered off the requests' thread"). The
 * thread starts with the first mail and ends after IDLE_EXIT_MS without one. A thread that fails
 * fails the renders it held: their mails are tried again after their backoff (outbox.ts). A mail not
 * rendered within RENDER_LIMIT_MS ends the thread the same way.
 */
export function mailRenderThread(options: MailRenderOptions = {}): MailRenderer {
  const limitMs = options.limitMs ?? RENDER_LIMIT_MS;
  const module = options.worker ?? { url: import.meta.url, name: "render-worker" };
  let thread: Worker | undefined;
  let idleTimer: NodeJS.Timeout | undefined;
  let nextId = 0;
  /** The renders asked for and not answered, each with the thread it was handed to. */
  const pending = new Map<
    number,
    { worker: Worker; resolve(reply: RenderReply): void; reject(error: Error): void }
  >();
  /** Each thread's readiness: settled when it says its modules are loaded (render-worker.ts). */
  const readiness = new WeakMap<Worker, Promise<void>>();

  /** Fails the renders `worker` held (not those of a thread started since). */
  const failAll = (worker: Worker, error: Error) => {
    for (const [id, waiting] of pending) {
      if (waiting.worker !== worker) continue;
      pending.delete(id);
      waiting.reject(error);
    }
  };
  const started = (): Worker => {
    if (thread) return thread;
    const worker = workerThread(module.url, module.name, {
      resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB },
    });
    let markReady = () => {};
    readiness.set(
      worker,
      new Promise<void>((resolve) => {
        markReady = resolve;
      }),
    );
    worker.on("message", (reply: RenderReply | RenderReady) => {
      if ("ready" in reply) return markReady();
      const waiting = pending.get(reply.id);
      pending.delete(reply.id);
      waiting?.resolve(reply);
      if (pending.size === 0) idleTimer = setTimeout(() => void close(), IDLE_EXIT_MS).unref();
    });
    worker.on("error", (error) => failAll(worker, error));
    worker.on("exit", (code) => {
      if (thread === worker) thread = undefined;
      failAll(worker, new Error(`the mail render thread exited (${code})`));
    });
    // The thread keeps no process alive: the server's own handles do.
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

  return {
    render: async (kind, order, publicUrl, invoiceNumber) => {
      clearTimeout(idleTimer);
      const id = nextId++;
      let overdue: NodeJS.Timeout | undefined;
      let settled = false;
      const reply = await new Promise<RenderReply>((resolve, reject) => {
        const worker = started();
        pending.set(id, { worker, resolve, reject });
        const request: RenderRequest = { id, kind, order, publicUrl, invoiceNumber };
        worker.postMessage(request);
        // The limit runs from when the thread is ready (RENDER_LIMIT_MS).
        void readiness.get(worker)?.then(() => {
          if (settled) return;
          overdue = setTimeout(() => {
            // Only this mail is late, but the thread may be stuck on it: the others it holds fail
            // too (the thread's exit fails them) and are tried again after their backoff.
            const late = pending.get(id);
            pending.delete(id);
            late?.reject(new Error(`the mail took longer than ${limitMs} ms to render`));
            if (thread === worker) thread = undefined;
            void worker.terminate();
          }, limitMs);
          overdue.unref();
        });
      }).finally(() => {
        settled = true;
        clearTimeout(overdue);
      });
      if ("error" in reply) throw new Error(reply.error);
      return reply.mail;
    },
    close,
  };
}
