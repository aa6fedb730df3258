import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { EXACT_COUNT_LIMIT, LIST_PAGE_SIZE, MAX_LIST_PAGE_SIZE } from "../../../shared/paging.js";
import {
  reviewInputSchema,
  reviewListQuerySchema,
  reviewPageSchema,
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
        summary: "A page of reviews, newest first",
        description: [
          `Cursor paging: \`limit\` reviews (default ${LIST_PAGE_SIZE}, at most ${MAX_LIST_PAGE_SIZE}) after \`cursor\`, the previous page's \`nextCursor\` (null on the last page); a forged cursor is a 400. The home page asks \`?limit=3\` and shows \`items\`.`,
          `\`total\` counts the reviews exactly up to ${EXACT_COUNT_LIMIT.toLocaleString("en-US")}, otherwise says "more than" (\`exact: false\`).`,
          "Until the lists were paged (docs/decisions/people-lists.md) the answer was a bare array of at most 100 reviews; it is now this page object.",
        ].join("\n\n"),
        querystring: reviewListQuerySchema,
        response: { 200: reviewPageSchema, ...problemResponses(400) },
      },
    },
    async (request) => listReviews(app.db, request.query),
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
