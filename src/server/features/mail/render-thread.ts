import type { Worker } from "node:worker_threads";
import { workerThread } from "../../lib/threads.js";
import type { RenderReply, RenderRequest } from "./render-worker.js";
import type { RenderMail } from "./templates.js";

/** A thread with nothing to render this long ends, giving back the memory React took. */
const IDLE_EXIT_MS = 30_000;
/**
 * The thread's young generation, in MB: V8's default lets a thread that renders mail after mail
 * grow it to tens of MB (81 MB of RSS after 3,000 mails, 47 MB at this size), and its collections,
 * at the lowest priority, delay no request.
 */
const YOUNG_GENERATION_MB = 4;

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
 * fails the renders it held: their mails are tried again after their backoff (outbox.ts).
 */
export function mailRenderThread(): MailRenderer {
  let thread: Worker | undefined;
  let idleTimer: NodeJS.Timeout | undefined;
  let nextId = 0;
  const pending = new Map<number, { resolve(reply: RenderReply): void; reject(error: Error): void }>();

  const failAll = (error: Error) => {
    for (const { reject } of pending.values()) reject(error);
    pending.clear();
  };
  const started = (): Worker => {
    if (thread) return thread;
    const worker = workerThread(import.meta.url, "render-worker", {
      resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB },
    });
    worker.on("message", (reply: RenderReply) => {
      const waiting = pending.get(reply.id);
      pending.delete(reply.id);
      waiting?.resolve(reply);
      if (pending.size === 0) idleTimer = setTimeout(() => void close(), IDLE_EXIT_MS).unref();
    });
    worker.on("error", (error) => failAll(error));
    worker.on("exit", (code) => {
      if (thread === worker) thread = undefined;
      failAll(new Error(`the mail render thread exited (${code})`));
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
      const reply = await new Promise<RenderReply>((resolve, reject) => {
        pending.set(id, { resolve, reject });
        const request: RenderRequest = { id, kind, order, publicUrl, invoiceNumber };
        started().postMessage(request);
      });
      if ("error" in reply) throw new Error(reply.error);
      return reply.mail;
    },
    close,
  };
}
