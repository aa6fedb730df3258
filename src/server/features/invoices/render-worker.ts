// The invoice render thread (renderer.ts starts it): renders each invoice or credit note asked for, at the lowest
// priority, and answers with its bytes or with why it could not.
import { parentPort, threadId } from "node:worker_threads";
import type { Seller } from "../../config.js";
import { lowerThisThread, type ThreadReply } from "../../lib/threads.js";
import { type CreditNoteData, renderCreditNote } from "./credit-note.js";
import { type InvoiceData, renderInvoice } from "./pdf.js";

/** An invoice, or a credit note (credit-note.ts), drawn alike. */
export type Paper = { invoice: InvoiceData } | { creditNote: CreditNoteData };

export type RenderRequest = { id: number; seller: Seller } & Paper;

/** `threadId`: which thread rendered it (the main thread is 0), so the renderer can count it. */
export interface RenderAnswer {
  pdf: Uint8Array;
  threadId: number;
}
type RenderReply = ThreadReply<RenderAnswer>;

const port = parentPort;
if (port) {
  lowerThisThread();
  port.on("message", async (request: RenderRequest) => {
    const { id, seller } = request;
    try {
      const pdf =
        "creditNote" in request
          ? await renderCreditNote(request.creditNote, seller)
          : await renderInvoice(request.invoice, seller);
      // Copied, not transferred: a small Buffer may share its memory with others of the thread.
      port.postMessage({ id, pdf, threadId } satisfies RenderReply);
    } catch (error) {
      port.postMessage({
        id,
        error: error instanceof Error ? error.message : String(error),
      } satisfies RenderReply);
    }
  });
}
