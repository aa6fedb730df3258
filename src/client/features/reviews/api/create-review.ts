import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { Review, ReviewInput } from "../../../../shared/reviews.js";
import { api } from "../../../lib/api.js";
import { reviewsQueryKey } from "./get-reviews.js";

export function createReview(input: ReviewInput): Promise<Review> {
  return api<Review>("/api/reviews", { method: "POST", json: input });
}

export function useCreateReview() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createReview,
    // Both the full grid and the home page's first three show the new review.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: reviewsQueryKey }),
  });
}
