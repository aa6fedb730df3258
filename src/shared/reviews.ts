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
