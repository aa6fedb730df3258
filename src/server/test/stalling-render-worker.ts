// A mail render thread for features/mail/render-thread.test.ts, started by path: it renders as
// render-worker.ts does, except a mail whose customer is named "Loops Forever", on which it spins
// for ever, as a template caught in a loop would (only ending the thread stops it).
import { parentPort } from "node:worker_threads";
import type { RenderReady, RenderReply, RenderRequest } from "../features/mail/render-worker.js";
import { renderMail } from "../features/mail/templates.js";
import { lowerThisThread } from "../lib/threads.js";

const port = parentPort;
if (port) {
  // As render-worker.ts: the test tells its thread by the lowest priority.
  lowerThisThread();
  port.on("message", async ({ id, kind, order, publicUrl, invoiceNumber }: RenderRequest) => {
    if (order.name === "Loops Forever") for (;;);
    port.postMessage({
      id,
      mail: await renderMail(kind, order, publicUrl, invoiceNumber),
    } satisfies RenderReply);
  });
  port.postMessage({ ready: true } satisfies RenderReady);
}
