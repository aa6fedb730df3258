import { queryOptions, useQuery } from "@tanstack/react-query";
import { withQuery } from "../../../../shared/constants.js";
import type { ReviewPage } from "../../../../shared/reviews.js";
import { api } from "../../../lib/api.js";
import { reviewKeys } from "./keys.js";

export function getReviews(
  query: { limit: number; cursor?: string | undefined },
  signal?: AbortSignal,
): Promise<ReviewPage> {
  return api<ReviewPage>(withQuery("/api/reviews", { limit: query.limit, cursor: query.cursor }), { signal });
}

function newestReviewsQueryOptions(limit: number) {
  return queryOptions({
    queryKey: reviewKeys.newest(limit),
    queryFn: ({ signal }) => getReviews({ limit }, signal),
  });
}

/** The `limit` newest reviews (the home page's three). */
export function useNewestReviews(limit: number) {
  return useQuery({ ...newestReviewsQueryOptions(limit), select: (page) => page.items });
}
