// The mail render thread (render-thread.ts starts it): renders each mail asked for, at the lowest
// priority, and answers with it or with why it could not.
import { parentPort } from "node:worker_threads";
import { lowerThisThread, type ThreadReady } from "../../lib/threads.js";
import type { OrderMailKind } from "./templates.js";
import { type MailLinks, type MailOrder, type RenderedMail, renderMail } from "./templates.js";

export interface RenderRequest {
  id: number;
  kind: OrderMailKind;
  order: MailOrder;
  publicUrl: string;
  invoiceNumber?: string;
  links?: MailLinks;
}

export type RenderReply = { id: number; mail: RenderedMail } | { id: number; error: string };

const port = parentPort;
if (port) {
  const tid = lowerThisThread();
  port.on("message", async ({ id, kind, order, publicUrl, invoiceNumber, links }: RenderRequest) => {
    try {
      port.postMessage({
        id,
        mail: await renderMail(kind, order, publicUrl, invoiceNumber, links),
      } satisfies RenderReply);
    } catch (error) {
      port.postMessage({
        id,
        error: error instanceof Error ? error.message : String(error),
      } satisfies RenderReply);
    }
  });
  // Modules loaded: the render limit counts this thread's CPU time from here (lib/threads.ts).
  port.postMessage({ ready: true, tid } satisfies ThreadReady);
}
