import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { adminOverviewSchema } from "../../../shared/admin.js";
import { problemResponses } from "../../lib/schemas.js";
import { getOverview } from "./service.js";

export const adminRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    "/api/admin/overview",
    {
      onRequest: app.requireAdmin,
      schema: {
        tags: ["admin"],
        summary: "Counts of users and orders by state, and the products low on stock (admin)",
        response: { 200: adminOverviewSchema, ...problemResponses(401, 403) },
      },
    },
    async () => getOverview(app.db),
  );
};
