import type { InfiniteData } from "@tanstack/react-query";
import type { Review, ReviewInput, ReviewPage } from "../../../../shared/reviews.js";
import { api } from "../../../lib/api.js";
import { useApiMutation } from "../../../lib/use-api-mutation.js";
import { reviewPagesQueryOptions } from "./get-review-pages.js";
import { reviewKeys } from "./keys.js";

function createReview(input: ReviewInput): Promise<Review> {
  return api<Review>("/api/reviews", { method: "POST", json: input });
}

export function useCreateReview() {
  return useApiMutation(createReview, {
    // The grid keeps only its first page, so the refresh asks for one page, not every one loaded.
    onSuccess: (_review, _input, queryClient) =>
      queryClient.setQueryData<InfiniteData<ReviewPage, string | undefined>>(
        reviewPagesQueryOptions.queryKey,
        (data) => data && { pages: data.pages.slice(0, 1), pageParams: data.pageParams.slice(0, 1) },
      ),
    // Both the grid and the home page's first three show the new review.
    invalidates: [reviewKeys.all],
  });
}
