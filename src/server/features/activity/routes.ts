import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { activityFilterSchema, activityPageSchema, activityQuerySchema } from "../../../shared/activity.js";
import { csvAnswer, sendCsv } from "../../lib/csv.js";
import { boundedTotalText, cursorPagingText, problemResponses } from "../../lib/schemas.js";
import { activityCsv, listActivity } from "./service.js";

/** The activity log's Activity page and CSV (admin only; docs/product.md, "Activity log"). */
export const activityRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ["activity"];

  app.get(
    "/api/admin/activity",
    {
      onRequest: app.requireAdmin,
      schema: {
        tags,
        summary: "A page of the activity log, newest first, by actor, action, target and dates (admin)",
        description: [cursorPagingText("entries"), boundedTotalText("the matching entries")].join("\n\n"),
        querystring: activityQuerySchema,
        response: { 200: activityPageSchema, ...problemResponses(400, 401, 403) },
      },
    },
    async (request) => listActivity(app.reads.of(request).db, request.query),
  );

  app.get(
    "/api/admin/activity.csv",
    {
      onRequest: app.requireAdmin,
      schema: {
        tags,
        summary: "The activity log's entries that match the filter, newest first, as CSV (admin)",
        querystring: activityFilterSchema,
        produces: ["text/csv"],
        response: {
          200: csvAnswer("RFC 4180 CSV, formula-safe"),
          ...problemResponses(400, 401, 403),
        },
      },
    },
    async (request, reply) => {
      const csv = await activityCsv(app.reads.of(request), request.query);
      return sendCsv(reply, "activity", csv);
    },
  );
};
