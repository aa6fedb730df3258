import { requestThread } from "../../lib/threads.js";
import type { RenderRequest } from "./render-worker.js";
import type { RenderedMail, RenderMail } from "./templates.js";

/** A thread with nothing to render this long ends, giving back the memory React took. */
const IDLE_EXIT_MS = 30_000;
/**
 * The thread's young generation, in MB: V8's default lets a thread that renders mail after mail
 * grow it to tens of MB (81 MB of RSS after 3,000 mails, 47 MB at this size), and its collections,
 * at the lowest priority, delay no request.
 */
const YOUNG_GENERATION_MB = 4;

/**
 * How much of its thread's CPU time one mail may take, counted once the thread is ready (its
 * modules, React among them, loaded): a template that loops, or a thread wedged otherwise, fails
 * that mail (tried again after its backoff) and the thread is ended, to start afresh with the next
 * mail. CPU time, not the clock's (lib/threads.ts): at the lowest priority on a busy machine the
 * thread may wait long for a CPU, which is no fault of the mail. A mail takes about a millisecond.
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
  const module = options.worker ?? { url: import.meta.url, name: "render-worker" };
  const thread = requestThread<Omit<RenderRequest, "id">, { mail: RenderedMail }>({
    ...module,
    label: "mail render",
    idleExitMs: IDLE_EXIT_MS,
    youngGenerationMb: YOUNG_GENERATION_MB,
    // Only this mail is late, but the thread may be stuck on it: the others it holds fail too and
    // are tried again after their backoff.
    limit: {
      ms: options.limitMs ?? RENDER_LIMIT_MS,
      late: (ms) => `the mail took more than ${ms} ms of CPU time to render`,
    },
  });
  return {
    render: async (kind, order, publicUrl, invoiceNumber, links) =>
      (await thread.ask({ kind, order, publicUrl, invoiceNumber, links })).mail,
    close: () => thread.close(),
  };
}
