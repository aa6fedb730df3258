import { z } from "zod";
import { RATING_MAX, RATING_MIN } from "./constants.js";
import { reviewMessages } from "./messages/reviews.js";
import { cursorPageSchema, cursorQuerySchema } from "./paging.js";
import { requiredText } from "./text.js";

export const reviewSchema = z.object({
  id: z.string(),
  name: z.string(),
  comment: z.string(),
  rating: z.number().int(),
  verified: z.boolean(),
  /** Written by an admin (the role the account had then): the shop's own voice. */
  staff: z.boolean(),
  createdAt: z.string(),
});
export type Review = z.infer<typeof reviewSchema>;

/** GET /api/reviews: `limit` reviews, newest first, after `cursor` (the page before's nextCursor). */
export const reviewListQuerySchema = cursorQuerySchema;

export const reviewPageSchema = cursorPageSchema(reviewSchema);
export type ReviewPage = z.infer<typeof reviewPageSchema>;

const REVIEW_COMMENT_MAX_LENGTH = 1000;

/** POST /api/reviews; the reviewer's name comes from the session, never from the body. */
export const reviewInputSchema = z.object({
  comment: requiredText(
    reviewMessages.commentRequired,
    REVIEW_COMMENT_MAX_LENGTH,
    reviewMessages.commentTooLong(REVIEW_COMMENT_MAX_LENGTH),
  ),
  // 0..5 (docs/product.md, Rules), under the shop's message that speaks of 1 to 5.
  rating: z
    .number({ error: reviewMessages.ratingRange })
    .int(reviewMessages.ratingRange)
    .min(RATING_MIN, reviewMessages.ratingRange)
    .max(RATING_MAX, reviewMessages.ratingRange),
});
export type ReviewInput = z.input<typeof reviewInputSchema>;

const MODERATION_REASON_MAX_LENGTH = 500;
const mod = reviewMessages.moderation;

/** POST /api/reviews/:id/hide and POST /api/reviews/:id/reports: why. */
export const moderationReasonSchema = z.object({
  reason: requiredText(
    mod.reasonRequired,
    MODERATION_REASON_MAX_LENGTH,
    mod.reasonTooLong(MODERATION_REASON_MAX_LENGTH),
  ),
});
export type ModerationReason = z.input<typeof moderationReasonSchema>;

export const reviewIdParamsSchema = z.object({ id: z.uuid({ error: mod.notFound }) });

/** Why the shop hid a review: shown to its author, and to admins with who hid it. */
const hiddenSchema = z.object({ at: z.string(), reason: z.string() }).nullable();

/** A review as its author (GET /api/reviews/mine) sees it: on show, or hidden and why. */
const ownReviewSchema = reviewSchema.extend({ hidden: hiddenSchema });
export const ownReviewPageSchema = cursorPageSchema(ownReviewSchema);
export type OwnReviewPage = z.infer<typeof ownReviewPageSchema>;

/** A review as moderation lists it: hidden or not, by whom, how many reports. */
const moderatedReviewSchema = reviewSchema.extend({
  hidden: hiddenSchema,
  hiddenBy: z.string().nullable(),
});
export type ModeratedReview = z.infer<typeof moderatedReviewSchema>;

/** A customer's report (GET /api/admin/review-reports), with the review it is about. */
const reviewReportSchema = z.object({
  id: z.string(),
  at: z.string(),
  reason: z.string(),
  reporterEmail: z.string().nullable(),
  review: moderatedReviewSchema,
});
export const reviewReportPageSchema = cursorPageSchema(reviewReportSchema);
export type ReviewReportPage = z.infer<typeof reviewReportPageSchema>;

/** GET /api/admin/reviews/hidden: last hidden first. */
export const hiddenReviewPageSchema = cursorPageSchema(moderatedReviewSchema);
export type HiddenReviewPage = z.infer<typeof hiddenReviewPageSchema>;
