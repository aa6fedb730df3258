import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { reviewListQuerySchema, reviewListSchema } from "../../../shared/reviews.js";
import { problemResponses } from "../../lib/schemas.js";
import { listReviews } from "./service.js";

export const reviewRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    "/api/reviews",
    {
      schema: {
        tags: ["reviews"],
        summary: "Reviews, newest first",
        querystring: reviewListQuerySchema,
        response: { 200: reviewListSchema, ...problemResponses(400) },
      },
    },
    async (request) => listReviews(app.db, request.query.limit),
  );
};
