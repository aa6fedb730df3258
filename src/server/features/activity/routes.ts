import { activityFilterSchema, activityPageSchema, activityQuerySchema } from "../../../shared/activity.js";
import { csvAnswer, sendCsv } from "../../lib/csv.js";
import { featureRoutes } from "../../lib/routes.js";
import { boundedTotalText, cursorPagingText } from "../../lib/schemas.js";
import { activityCsv, listActivity } from "./service.js";

/** The activity log's Activity page and CSV (admin only; docs/product.md, "Activity log"). */
export const activityRoutes = featureRoutes(["activity"], async (app, route) => {
  route.adminList("/api/admin/activity", activityQuerySchema, activityPageSchema, listActivity, {
    summary: "A page of the activity log, newest first, by actor, action, target and dates (admin)",
    description: [cursorPagingText("entries"), boundedTotalText("the matching entries")].join("\n\n"),
  });

  app.get(
    "/api/admin/activity.csv",
    route.admin({
      summary: "The activity log's entries that match the filter, newest first, as CSV (admin)",
      querystring: activityFilterSchema,
      produces: ["text/csv"],
      response: { 200: csvAnswer("RFC 4180 CSV, formula-safe") },
    }),
    async (request, reply) => {
      const csv = await activityCsv(app.reads.of(request), request.query);
      return sendCsv(reply, "activity", csv);
    },
  );
});
