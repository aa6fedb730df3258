// A mail render thread for features/mail/render-thread.test.ts, started by path: it renders as
// render-worker.ts does, except a mail whose customer is named "Loops Forever", on which it spins
// for ever, as a template caught in a loop would (only ending the thread stops it), and one named
// "Waits Awhile", on which it waits 3 s using no CPU.
import { parentPort } from "node:worker_threads";
import type { RenderReply, RenderRequest } from "../features/mail/render-worker.js";
import { renderMail } from "../features/mail/templates.js";
import { lowerThisThread, type ThreadReady } from "../lib/threads.js";

const port = parentPort;
if (port) {
  // As render-worker.ts: the test tells its thread by the lowest priority.
  const tid = lowerThisThread();
  port.on("message", async ({ id, kind, order, publicUrl, invoiceNumber }: RenderRequest) => {
    if (order.name === "Loops Forever") for (;;);
    // Blocked for 3 s without using the CPU, as a thread kept from the CPU by a busy machine is.
    if (order.name === "Waits Awhile") Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 3_000);
    port.postMessage({
      id,
      mail: await renderMail(kind, order, publicUrl, invoiceNumber),
    } satisfies RenderReply);
  });
  port.postMessage({ ready: true, tid } satisfies ThreadReady);
}
