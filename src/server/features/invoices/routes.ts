import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { invoiceFilename } from "../../../shared/invoices.js";
import { invoiceMessages } from "../../../shared/messages/invoices.js";
import { orderMessages } from "../../../shared/messages/orders.js";
import { orderIdParamsSchema } from "../../../shared/orders.js";
import { notFound } from "../../lib/problem.js";
import { problemResponses } from "../../lib/schemas.js";
import { findOrderInvoice, renderInvoice } from "./pdf.js";

export const invoiceRoutes: FastifyPluginAsyncZod = async (app) => {
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
          ...problemResponses(400, 401, 404),
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
      const pdf = await renderInvoice(found.invoice, app.config.seller);
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
};
