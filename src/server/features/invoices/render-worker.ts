// The invoice render thread (renderer.ts starts it): renders each invoice asked for, at the lowest
// priority, and answers with its bytes or with why it could not.
import { parentPort, threadId } from "node:worker_threads";
import type { Seller } from "../../config.js";
import { lowerThisThread, type ThreadReply } from "../../lib/threads.js";
import { type InvoiceData, renderInvoice } from "./pdf.js";

export interface RenderRequest {
  id: number;
  invoice: InvoiceData;
  seller: Seller;
}

/** `threadId`: which thread rendered it (the main thread is 0), so the renderer can count it. */
export interface RenderAnswer {
  pdf: Uint8Array;
  threadId: number;
}
type RenderReply = ThreadReply<RenderAnswer>;

const port = parentPort;
if (port) {
  lowerThisThread();
  port.on("message", async ({ id, invoice, seller }: RenderRequest) => {
    try {
      // Copied, not transferred: a small Buffer may share its memory with others of the thread.
      port.postMessage({ id, pdf: await renderInvoice(invoice, seller), threadId } satisfies RenderReply);
    } catch (error) {
      port.postMessage({
        id,
        error: error instanceof Error ? error.message : String(error),
      } satisfies RenderReply);
    }
  });
}
