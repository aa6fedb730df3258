import { queryOptions, useQuery } from "@tanstack/react-query";
import { withQuery } from "../../../../shared/constants.js";
import type { Review } from "../../../../shared/reviews.js";
import { api } from "../../../lib/api.js";

/** Every reviews query starts with this key, whatever its limit. */
export const reviewsQueryKey = ["reviews"] as const;

export function getReviews(limit?: number, signal?: AbortSignal): Promise<Review[]> {
  return api<Review[]>(withQuery("/api/reviews", { limit }), { signal });
}

export function reviewsQueryOptions(limit?: number) {
  return queryOptions({
    queryKey: [...reviewsQueryKey, "list", { limit }],
    queryFn: ({ signal }) => getReviews(limit, signal),
  });
}

/** The newest reviews first, `limit` of them when given. */
export function useReviews(limit?: number) {
  return useQuery(reviewsQueryOptions(limit));
}
