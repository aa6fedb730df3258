import { infiniteQueryOptions, useInfiniteQuery } from "@tanstack/react-query";
import { REVIEW_PAGE_SIZE } from "../../../../shared/constants.js";
import { getReviews } from "./get-reviews.js";
import { reviewKeys } from "./keys.js";

// Apart from get-reviews.ts, so that the home page, which shows three reviews, ships no infinite query.
export const reviewPagesQueryOptions = infiniteQueryOptions({
  queryKey: reviewKeys.pages(),
  queryFn: ({ pageParam, signal }) => getReviews({ limit: REVIEW_PAGE_SIZE, cursor: pageParam }, signal),
  initialPageParam: undefined as string | undefined,
  getNextPageParam: (last) => last.nextCursor ?? undefined,
});

/** Every review, newest first, one page after another as the visitor asks for more. */
export function useReviewPages() {
  return useInfiniteQuery(reviewPagesQueryOptions);
}
