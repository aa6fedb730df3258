import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import {
  basisPointsOf,
  discountCodeDetailSchema,
  discountCodeInputSchema,
  discountCodeListQuerySchema,
  discountCodePageSchema,
  discountCodeParamsSchema,
  discountCodeSchema,
  discountCodeUsesQuerySchema,
  taxSettingsInputSchema,
  taxSettingsSchema,
} from "../../../shared/discounts.js";
import { boundedTotalText, cursorPagingText, problemResponses } from "../../lib/schemas.js";
import { actorOf } from "../activity/index.js";
import { codeDetail, createCode, endCode, getTaxSettings, listCodes, setTaxSettings } from "./service.js";

const paging = [cursorPagingText("rows"), boundedTotalText()].join("\n\n");

/**
 * Discount codes and the tax settings, the admin side (docs/product.md, "Discount codes and tax
 * settings"). Making a code and changing the tax change what customers pay: they take a recent
 * second factor (step-up), as refunds do. Every change goes on the activity log.
 */
export const discountRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ["discounts"];

  app.get(
    "/api/admin/discount-codes",
    {
      onRequest: app.requireAdmin,
      schema: {
        tags,
        summary: "A page of the discount codes, newest first, each with its uses and state (admin)",
        description: paging,
        querystring: discountCodeListQuerySchema,
        response: { 200: discountCodePageSchema, ...problemResponses(400, 401, 403) },
      },
    },
    async (request) => listCodes(app.reads.of(request).db, request.query),
  );

  app.post(
    "/api/admin/discount-codes",
    {
      onRequest: [app.requireAdmin, app.requireStepUp],
      schema: {
        tags,
        summary:
          "Make a discount code: a percentage or an amount off, its dates, products and limits (admin)",
        description:
          "400 when a field is wrong (an unknown product, an end before the start), 409 when the code is taken (in any case).",
        body: discountCodeInputSchema,
        response: { 201: discountCodeSchema, ...problemResponses(400, 401, 403, 409) },
      },
    },
    async (request, reply) => {
      const code = await createCode(app.db, request.user.id, request.body, actorOf(request));
      return reply.code(201).send(code);
    },
  );

  app.get(
    "/api/admin/discount-codes/:id",
    {
      onRequest: app.requireAdmin,
      schema: {
        tags,
        summary: "A discount code and a page of its uses: the orders holding one, newest first (admin)",
        description: paging,
        params: discountCodeParamsSchema,
        querystring: discountCodeUsesQuerySchema,
        response: { 200: discountCodeDetailSchema, ...problemResponses(400, 401, 403, 404) },
      },
    },
    async (request) => codeDetail(app.db, request.params.id, request.query),
  );

  app.post(
    "/api/admin/discount-codes/:id/end",
    {
      onRequest: app.requireAdmin,
      schema: {
        tags,
        summary: "End a discount code now; ending an ended code changes nothing (admin)",
        params: discountCodeParamsSchema,
        response: { 200: discountCodeSchema, ...problemResponses(400, 401, 403, 404) },
      },
    },
    async (request) => endCode(app.db, request.params.id, actorOf(request)),
  );

  app.get(
    "/api/admin/settings/tax",
    {
      onRequest: app.requireAdmin,
      schema: {
        tags,
        summary: "The tax rate (basis points), whether prices include it, and the shop's tax ID (admin)",
        response: { 200: taxSettingsSchema, ...problemResponses(401, 403) },
      },
    },
    async () => getTaxSettings(app.db),
  );

  app.put(
    "/api/admin/settings/tax",
    {
      onRequest: [app.requireAdmin, app.requireStepUp],
      schema: {
        tags,
        summary: "Set the tax rate, whether prices include it, and the shop's tax ID (admin)",
        description:
          "The rate is a percentage with at most 2 decimals (8.25 is 825 basis points). Orders booked after the change take it; an order keeps what it was booked with.",
        body: taxSettingsInputSchema,
        response: { 200: taxSettingsSchema, ...problemResponses(400, 401, 403) },
      },
    },
    async (request) => {
      const { ratePercent, pricesIncludeTax, taxId } = request.body;
      return setTaxSettings(
        app.db,
        { taxRateBp: basisPointsOf(ratePercent) ?? 0, pricesIncludeTax, taxId },
        actorOf(request),
      );
    },
  );
};
