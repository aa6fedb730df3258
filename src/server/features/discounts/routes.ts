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
import { featureRoutes } from "../../lib/routes.js";
import { boundedTotalText, cursorPagingText } from "../../lib/schemas.js";
import { actorOf } from "../activity/index.js";
import { codeDetail, createCode, endCode, getTaxSettings, listCodes, setTaxSettings } from "./service.js";

const paging = [cursorPagingText("rows"), boundedTotalText()].join("\n\n");

/**
 * Discount codes and the tax settings, the admin side (docs/product.md, "Discount codes and tax
 * settings"). Making a code and changing the tax change what customers pay: they take a recent
 * second factor (step-up), as refunds do. Every change goes on the activity log.
 */
export const discountRoutes = featureRoutes(["discounts"], async (app, route) => {
  route.adminList(
    "/api/admin/discount-codes",
    discountCodeListQuerySchema,
    discountCodePageSchema,
    listCodes,
    {
      summary: "A page of the discount codes, newest first, each with its uses and state (admin)",
      description: paging,
    },
  );

  app.post(
    "/api/admin/discount-codes",
    route.stepUp({
      summary: "Make a discount code: a percentage or an amount off, its dates, products and limits (admin)",
      description:
        "400 when a field is wrong (an unknown product, an end before the start), 409 when the code is taken (in any case).",
      body: discountCodeInputSchema,
      response: { 201: discountCodeSchema },
      problems: [409],
    }),
    async (request, reply) => {
      const code = await createCode(app.db, request.user.id, request.body, actorOf(request));
      return reply.code(201).send(code);
    },
  );

  app.get(
    "/api/admin/discount-codes/:id",
    route.admin({
      summary: "A discount code and a page of its uses: the orders holding one, newest first (admin)",
      description: paging,
      params: discountCodeParamsSchema,
      querystring: discountCodeUsesQuerySchema,
      response: { 200: discountCodeDetailSchema },
      problems: [404],
    }),
    async (request) => codeDetail(app.db, request.params.id, request.query),
  );

  app.post(
    "/api/admin/discount-codes/:id/end",
    route.admin({
      summary: "End a discount code now; ending an ended code changes nothing (admin)",
      params: discountCodeParamsSchema,
      response: { 200: discountCodeSchema },
      problems: [404],
    }),
    async (request) => endCode(app.db, request.params.id, actorOf(request)),
  );

  app.get(
    "/api/admin/settings/tax",
    route.admin({
      summary: "The tax rate (basis points), whether prices include it, and the shop's tax ID (admin)",
      response: { 200: taxSettingsSchema },
    }),
    async () => getTaxSettings(app.db),
  );

  app.put(
    "/api/admin/settings/tax",
    route.stepUp({
      summary: "Set the tax rate, whether prices include it, and the shop's tax ID (admin)",
      description:
        "The rate is a percentage with at most 2 decimals (8.25 is 825 basis points). Orders booked after the change take it; an order keeps what it was booked with.",
      body: taxSettingsInputSchema,
      response: { 200: taxSettingsSchema },
    }),
    async (request) => {
      const { ratePercent, pricesIncludeTax, taxId } = request.body;
      return setTaxSettings(
        app.db,
        { taxRateBp: basisPointsOf(ratePercent) ?? 0, pricesIncludeTax, taxId },
        actorOf(request),
      );
    },
  );
});
