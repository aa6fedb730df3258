import { createHash } from "node:crypto";
import type { Seller } from "../../config.js";
import { countInvoiceRender } from "../../lib/metrics.js";
import { requestThread } from "../../lib/threads.js";
import type { CreditNoteData } from "./credit-note.js";
import type { InvoiceData } from "./pdf.js";
import type { Paper, RenderAnswer, RenderRequest } from "./render-worker.js";

/** A thread with nothing to render this long ends, giving back the memory pdfkit took. */
const IDLE_EXIT_MS = 30_000;
/** The thread's young generation, in MB, as the mail render thread's (features/mail/render-thread.ts). */
const YOUNG_GENERATION_MB = 4;
/**
 * The rendered invoices kept, at most this many bytes together (an invoice is 3 to 4 kB) and this
 * many of them: what a busy day's downloads and receipts ask for again, in a bounded memory.
 */
const CACHE_MAX_BYTES = 8 * 1024 * 1024;
const CACHE_MAX_ENTRIES = 2_000;

export interface InvoiceRenderer {
  /** The invoice's PDF: from the cache, from a render of it under way, or rendered in the thread. */
  render(invoice: InvoiceData, seller: Seller): Promise<Buffer>;
  /** A credit note's PDF (credit-note.ts), the same way, in the same thread and cache. */
  renderCreditNote(note: CreditNoteData, seller: Seller): Promise<Buffer>;
  /** Ends the thread and empties the cache; a render after this starts the thread again. */
  close(): Promise<void>;
}

/**
 * Renders invoices in a worker thread of the lowest priority (render-worker.ts), and keeps the
 * bytes. pdfkit takes about 12.6 ms of CPU an invoice: rendered on the requests' thread at every
 * download, 16 parallel downloads of one invoice pushed another customer's My Orders p95 from
 * 19 ms to 778 ms (issue 28). An invoice's bytes depend on its data and the seller only (pdf.ts,
 * renderInvoice), so they are kept under a digest of both, least recently used first out: a
 * refund, which changes the data, is a new entry, and a stale one can never be served. Renders of
 * the same invoice asked for at once share one render.
 */
export function invoiceRenderer(): InvoiceRenderer {
  const thread = requestThread<Omit<RenderRequest, "id">, RenderAnswer>({
    url: import.meta.url,
    name: "render-worker",
    label: "invoice render",
    idleExitMs: IDLE_EXIT_MS,
    youngGenerationMb: YOUNG_GENERATION_MB,
  });
  // A Map iterates in insertion order: re-inserting on a hit makes the first key the least recent.
  const cache = new Map<string, Buffer>();
  let cachedBytes = 0;
  const underWay = new Map<string, Promise<Buffer>>();

  const renderInThread = async (paper: Paper, seller: Seller): Promise<Buffer> => {
    const reply = await thread.ask({ ...paper, seller });
    countInvoiceRender(reply.threadId === 0 ? "main" : "thread");
    return Buffer.from(reply.pdf.buffer, reply.pdf.byteOffset, reply.pdf.byteLength);
  };

  const keep = (key: string, pdf: Buffer) => {
    if (pdf.length > CACHE_MAX_BYTES) return;
    cache.set(key, pdf);
    cachedBytes += pdf.length;
    for (const [oldest, bytes] of cache) {
      if (cachedBytes <= CACHE_MAX_BYTES && cache.size <= CACHE_MAX_ENTRIES) break;
      cache.delete(oldest);
      cachedBytes -= bytes.length;
    }
  };

  // Keyed by the paper's kind and data: an invoice and a credit note never share an entry.
  const render = async (paper: Paper, seller: Seller): Promise<Buffer> => {
    const key = createHash("sha256")
      .update(JSON.stringify([paper, seller]))
      .digest("base64");
    const cached = cache.get(key);
    if (cached) {
      cache.delete(key);
      cache.set(key, cached);
      countInvoiceRender("cache");
      return cached;
    }
    const running = underWay.get(key);
    if (running) {
      countInvoiceRender("shared");
      return running;
    }
    const rendering = renderInThread(paper, seller);
    underWay.set(key, rendering);
    try {
      const pdf = await rendering;
      if (!cache.has(key)) keep(key, pdf);
      return pdf;
    } finally {
      underWay.delete(key);
    }
  };

  return {
    render: (invoice, seller) => render({ invoice }, seller),
    renderCreditNote: (creditNote, seller) => render({ creditNote }, seller),
    close: async () => {
      cache.clear();
      cachedBytes = 0;
      await thread.close();
    },
  };
}
