import { z } from "zod";
import { cursorQuerySchema } from "../../../shared/paging.js";
import {
  hiddenReviewPageSchema,
  moderationReasonSchema,
  ownReviewPageSchema,
  reviewIdParamsSchema,
  reviewInputSchema,
  reviewListQuerySchema,
  reviewPageSchema,
  reviewReportPageSchema,
  reviewSchema,
} from "../../../shared/reviews.js";
import { featureRoutes } from "../../lib/routes.js";
import { boundedTotalText, cursorPagingText } from "../../lib/schemas.js";
import { actorOf } from "../activity/index.js";
import {
  hideReview,
  listHiddenReviews,
  listOwnReviews,
  listReports,
  reportReview,
  restoreReview,
} from "./moderation.js";
import { createReview, listReviews } from "./service.js";

const moderationReportedSchema = z.object({ reported: z.literal(true) });

export const reviewRoutes = featureRoutes(["reviews"], async (app, route) => {
  app.get(
    "/api/reviews",
    route.anyone({
      summary: "A page of reviews, newest first",
      description: [
        `${cursorPagingText("reviews", "after `cursor`, the previous page's `nextCursor` (null on the last page)")} The home page asks \`?limit=3\` and shows \`items\`.`,
        boundedTotalText("the reviews"),
        "Until the lists were paged (docs/decisions/people-lists.md) the answer was a bare array of at most 100 reviews; it is now this page object.",
      ].join("\n\n"),
      querystring: reviewListQuerySchema,
      response: { 200: reviewPageSchema },
    }),
    async (request) => listReviews(app.db, request.query),
  );

  app.post(
    "/api/reviews",
    route.user({
      summary: "Write a review under my name",
      description:
        "Marked staff when written by an admin. REVIEW_LIMIT_PER_HOUR reviews an hour per account, then 429 with Retry-After.",
      body: reviewInputSchema,
      response: { 201: reviewSchema },
      problems: [429],
    }),
    async (request, reply) =>
      reply
        .code(201)
        .send(await createReview(app.db, request.user, request.body, app.config.reviewLimitPerHour)),
  );

  // Moderation (docs/product.md, "Review moderation").
  const moderatedSchema = hiddenReviewPageSchema.shape.items.element;

  app.get(
    "/api/reviews/mine",
    route.user({
      summary:
        "The signed-in user's own reviews, newest first, each on show or hidden with the shop's reason",
      querystring: cursorQuerySchema,
      response: { 200: ownReviewPageSchema },
    }),
    async (request) => listOwnReviews(app.db, request.user.id, request.query),
  );

  app.post(
    "/api/reviews/:id/reports",
    route.user({
      summary: "Report a review on show to the shop's admins, with a reason",
      description:
        "Once per customer and review: 201 the first time, 200 after. At most 10 an hour, then 429.",
      params: reviewIdParamsSchema,
      body: moderationReasonSchema,
      response: {
        200: moderationReportedSchema,
        201: moderationReportedSchema,
      },
      problems: [404, 429],
    }),
    async (request, reply) => {
      const made = await reportReview(app.db, request.user.id, request.params.id, request.body.reason);
      return reply.code(made ? 201 : 200).send({ reported: true });
    },
  );

  app.post(
    "/api/reviews/:id/hide",
    route.admin({
      summary: "Hide a review from every public list, with the reason its author is shown (admin)",
      params: reviewIdParamsSchema,
      body: moderationReasonSchema,
      response: { 200: moderatedSchema },
      problems: [404],
    }),
    async (request) => hideReview(app.db, actorOf(request), request.params.id, request.body.reason),
  );

  app.post(
    "/api/reviews/:id/restore",
    route.admin({
      summary: "Put a hidden review on show again (admin)",
      params: reviewIdParamsSchema,
      response: { 200: moderatedSchema },
      problems: [404],
    }),
    async (request) => restoreReview(app.db, actorOf(request), request.params.id),
  );

  route.adminList("/api/admin/review-reports", cursorQuerySchema, reviewReportPageSchema, listReports, {
    summary: "Customers' reports of reviews, newest first, each with its review (admin)",
  });

  route.adminList("/api/admin/reviews/hidden", cursorQuerySchema, hiddenReviewPageSchema, listHiddenReviews, {
    summary: "The hidden reviews, last hidden first (admin)",
  });
});
