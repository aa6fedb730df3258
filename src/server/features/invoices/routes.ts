import { z } from "zod";
import { creditNoteFilename } from "../../../shared/credit-notes.js";
import { invoiceFilename } from "../../../shared/invoices.js";
import { creditNoteMessages } from "../../../shared/messages/credit-notes.js";
import { invoiceMessages } from "../../../shared/messages/invoices.js";
import { orderMessages } from "../../../shared/messages/orders.js";
import { orderIdParamsSchema } from "../../../shared/orders.js";
import type { Seller } from "../../config.js";
import type { Db } from "../../db/client.js";
import { notFound } from "../../lib/problem.js";
import { enforceRateLimit } from "../../lib/rate-limit.js";
import { featureRoutes } from "../../lib/routes.js";
import { findOrderCreditNote } from "./credit-note.js";
import { type FoundPaper, findOrderInvoice } from "./pdf.js";
import type { InvoiceRenderer } from "./renderer.js";

const HOUR_SECONDS = 60 * 60;

export interface InvoiceRoutesOptions {
  /** Renders in a worker thread and keeps the bytes (renderer.ts); the receipt mail shares it. */
  renderer: InvoiceRenderer;
}

/** What differs between an order's invoice download and its credit note download. */
interface PaperDownload<T extends { number: number }> {
  /** The file's name in the route: /api/orders/:id/<file>. */
  file: string;
  summary: string;
  description: string;
  find: (db: Db, orderId: string) => Promise<FoundPaper<T> | undefined>;
  notIssued: string;
  /** Each paper has its own count per account, of the same size (each is a render or a read). */
  rateKey: string;
  rateLimited: (max: number, seconds: number) => string;
  render: (paper: T, seller: Seller) => Promise<Buffer>;
  filename: (number: number) => string;
}

export const invoiceRoutes = featureRoutes<InvoiceRoutesOptions>(
  ["orders"],
  async (app, route, { renderer }) => {
    const limit = { max: app.config.invoiceDownloadsPerHour, windowSeconds: HOUR_SECONDS };

    const download = <T extends { number: number }>(paper: PaperDownload<T>) =>
      app.get(
        `/api/orders/:id/${paper.file}`,
        route.user({
          summary: paper.summary,
          params: orderIdParamsSchema,
          produces: ["application/pdf"],
          response: {
            200: {
              description: paper.description,
              // Sent as a Buffer, which Fastify never serializes; the meta is for the OpenAPI document.
              content: {
                "application/pdf": {
                  schema: z.instanceof(Buffer).meta({ type: "string", format: "binary" }),
                },
              },
            },
          },
          problems: [404, 429],
        }),
        async (request, reply) => {
          const { user } = request;
          const found = await paper.find(app.db, request.params.id);
          // Another customer's order is answered as one that does not exist (as GET /api/orders/:id).
          if (!found || (user.role !== "admin" && found.userId !== user.id))
            throw notFound(orderMessages.notFound);
          if (!found.paper) throw notFound(paper.notIssued);
          // Per account, whichever orders; counted once the paper is the account's to have (a 404
          // writes nothing): each download is a render, or a read of the cache.
          await enforceRateLimit(app.db, `${paper.rateKey}:${user.id}`, limit, (seconds) =>
            paper.rateLimited(limit.max, seconds),
          );
          const pdf = await paper.render(found.paper, app.config.seller);
          return (
            reply
              // The buyer's name and address: kept by no shared cache, nor by the browser beyond the download.
              .header("cache-control", "private, no-store")
              .header("x-content-type-options", "nosniff")
              .header("content-disposition", `attachment; filename="${paper.filename(found.paper.number)}"`)
              .type("application/pdf")
              .send(pdf)
          );
        },
      );

    download({
      file: "invoice.pdf",
      summary:
        "A paid order's invoice as PDF (owner or admin); 404 for an order of another customer, as for one that does not exist, and for an order not paid",
      description: "The invoice, sent as an attachment named invoice-GH-<number>.pdf",
      find: findOrderInvoice,
      notIssued: invoiceMessages.notIssued,
      rateKey: "invoice",
      rateLimited: invoiceMessages.rateLimited,
      render: (invoice, seller) => renderer.render(invoice, seller),
      filename: invoiceFilename,
    });

    download({
      file: "credit-note.pdf",
      summary:
        "A refunded order's credit note as PDF (owner or admin); 404 for an order of another customer, as for one that does not exist, and for an order not refunded",
      description: "The credit note, sent as an attachment named credit-note-CN-<number>.pdf",
      find: findOrderCreditNote,
      notIssued: creditNoteMessages.notIssued,
      rateKey: "credit-note",
      rateLimited: creditNoteMessages.rateLimited,
      render: (note, seller) => renderer.renderCreditNote(note, seller),
      filename: creditNoteFilename,
    });
  },
);
