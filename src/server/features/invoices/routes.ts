import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { creditNoteFilename } from "../../../shared/credit-notes.js";
import { invoiceFilename } from "../../../shared/invoices.js";
import { creditNoteMessages } from "../../../shared/messages/credit-notes.js";
import { invoiceMessages } from "../../../shared/messages/invoices.js";
import { orderMessages } from "../../../shared/messages/orders.js";
import { orderIdParamsSchema } from "../../../shared/orders.js";
import { notFound } from "../../lib/problem.js";
import { enforceRateLimit } from "../../lib/rate-limit.js";
import { problemResponses } from "../../lib/schemas.js";
import { findOrderCreditNote } from "./credit-note.js";
import { findOrderInvoice } from "./pdf.js";
import type { InvoiceRenderer } from "./renderer.js";

const HOUR_SECONDS = 60 * 60;

export interface InvoiceRoutesOptions {
  /** Renders in a worker thread and keeps the bytes (renderer.ts); the receipt mail shares it. */
  renderer: InvoiceRenderer;
}

export const invoiceRoutes: FastifyPluginAsyncZod<InvoiceRoutesOptions> = async (app, { renderer }) => {
  const limit = { max: app.config.invoiceDownloadsPerHour, windowSeconds: HOUR_SECONDS };
  app.get(
    "/api/orders/:id/invoice.pdf",
    {
      onRequest: app.requireUser,
      schema: {
        tags: ["orders"],
        summary:
          "A paid order's invoice as PDF (owner or admin); 404 for an order of another customer, as for one that does not exist, and for an order not paid",
        params: orderIdParamsSchema,
        produces: ["application/pdf"],
        response: {
          200: {
            description: "The invoice, sent as an attachment named invoice-GH-<number>.pdf",
            // Sent as a Buffer, which Fastify never serializes; the meta is for the OpenAPI document.
            content: {
              "application/pdf": { schema: z.instanceof(Buffer).meta({ type: "string", format: "binary" }) },
            },
          },
          ...problemResponses(400, 401, 404, 429),
        },
      },
    },
    async (request, reply) => {
      const { user } = request;
      const found = await findOrderInvoice(app.db, request.params.id);
      // Another customer's order is answered as one that does not exist (as GET /api/orders/:id).
      if (!found || (user.role !== "admin" && found.userId !== user.id))
        throw notFound(orderMessages.notFound);
      if (!found.invoice) throw notFound(invoiceMessages.notIssued);
      // Per account, whichever orders; counted once the invoice is the account's to have (a 404
      // writes nothing): each download is a render, or a read of the cache.
      await enforceRateLimit(app.db, `invoice:${user.id}`, limit, (seconds) =>
        invoiceMessages.rateLimited(limit.max, seconds),
      );
      const pdf = await renderer.render(found.invoice, app.config.seller);
      return (
        reply
          // The buyer's name and address: kept by no shared cache, nor by the browser beyond the download.
          .header("cache-control", "private, no-store")
          .header("x-content-type-options", "nosniff")
          .header("content-disposition", `attachment; filename="${invoiceFilename(found.invoice.number)}"`)
          .type("application/pdf")
          .send(pdf)
      );
    },
  );

  app.get(
    "/api/orders/:id/credit-note.pdf",
    {
      onRequest: app.requireUser,
      schema: {
        tags: ["orders"],
        summary:
          "A refunded order's credit note as PDF (owner or admin); 404 for an order of another customer, as for one that does not exist, and for an order not refunded",
        params: orderIdParamsSchema,
        produces: ["application/pdf"],
        response: {
          200: {
            description: "The credit note, sent as an attachment named credit-note-CN-<number>.pdf",
            content: {
              "application/pdf": { schema: z.instanceof(Buffer).meta({ type: "string", format: "binary" }) },
            },
          },
          ...problemResponses(400, 401, 404, 429),
        },
      },
    },
    async (request, reply) => {
      const { user } = request;
      const found = await findOrderCreditNote(app.db, request.params.id);
      // As the invoice: another customer's order is answered as one that does not exist.
      if (!found || (user.role !== "admin" && found.userId !== user.id))
        throw notFound(orderMessages.notFound);
      if (!found.creditNote) throw notFound(creditNoteMessages.notIssued);
      // Its own count per account, of the same size as the invoices' (each is a render or a read).
      await enforceRateLimit(app.db, `credit-note:${user.id}`, limit, (seconds) =>
        creditNoteMessages.rateLimited(limit.max, seconds),
      );
      const pdf = await renderer.renderCreditNote(found.creditNote, app.config.seller);
      return reply
        .header("cache-control", "private, no-store")
        .header("x-content-type-options", "nosniff")
        .header(
          "content-disposition",
          `attachment; filename="${creditNoteFilename(found.creditNote.number)}"`,
        )
        .type("application/pdf")
        .send(pdf);
    },
  );
};
