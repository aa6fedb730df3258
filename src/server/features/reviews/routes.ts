import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import {
  reviewInputSchema,
  reviewListQuerySchema,
  reviewListSchema,
  reviewSchema,
} from "../../../shared/reviews.js";
import { problemResponses } from "../../lib/schemas.js";
import { createReview, listReviews } from "./service.js";

export const reviewRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ["reviews"];

  app.get(
    "/api/reviews",
    {
      schema: {
        tags,
        summary: "Reviews, newest first",
        querystring: reviewListQuerySchema,
        response: { 200: reviewListSchema, ...problemResponses(400) },
      },
    },
    async (request) => listReviews(app.db, request.query.limit),
  );

  app.post(
    "/api/reviews",
    {
      onRequest: app.requireUser,
      schema: {
        tags,
        summary: "Write a review under my name",
        description:
          "Marked staff when written by an admin. REVIEW_LIMIT_PER_HOUR reviews an hour per account, then 429 with Retry-After.",
        body: reviewInputSchema,
        response: { 201: reviewSchema, ...problemResponses(400, 401, 429) },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(await createReview(app.db, request.user, request.body, app.config.reviewLimitPerHour)),
  );
};
