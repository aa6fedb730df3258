import { type InfiniteData, useMutation, useQueryClient } from "@tanstack/react-query";
import type { Review, ReviewInput, ReviewPage } from "../../../../shared/reviews.js";
import { api } from "../../../lib/api.js";
import { reviewPagesQueryOptions } from "./get-review-pages.js";
import { reviewKeys } from "./keys.js";

function createReview(input: ReviewInput): Promise<Review> {
  return api<Review>("/api/reviews", { method: "POST", json: input });
}

export function useCreateReview() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createReview,
    onSuccess: () => {
      // The grid keeps only its first page, so the refresh asks for one page, not every one loaded.
      queryClient.setQueryData<InfiniteData<ReviewPage, string | undefined>>(
        reviewPagesQueryOptions.queryKey,
        (data) => data && { pages: data.pages.slice(0, 1), pageParams: data.pageParams.slice(0, 1) },
      );
      // Both the grid and the home page's first three show the new review.
      return queryClient.invalidateQueries({ queryKey: reviewKeys.all });
    },
  });
}
