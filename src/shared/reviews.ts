import { z } from "zod";
import { RATING_MAX } from "./constants.js";

export const reviewSchema = z.object({
  id: z.string(),
  name: z.string(),
  comment: z.string(),
  rating: z.number().int(),
  verified: z.boolean(),
  createdAt: z.string(),
});
export type Review = z.infer<typeof reviewSchema>;

export const reviewListQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(100).optional(),
});

export const reviewListSchema = z.array(reviewSchema);

/** Number of filled stars for a rating (the spec accepts 0..5 but shows 1..5 stars). */
export function starCount(rating: number): number {
  return Math.min(RATING_MAX, Math.max(1, Math.round(rating)));
}
