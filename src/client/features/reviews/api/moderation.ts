import { useInfiniteQuery } from "@tanstack/react-query";
import type {
  HiddenReviewPage,
  ModeratedReview,
  ModerationReason,
  OwnReviewPage,
  ReviewReportPage,
} from "../../../../shared/reviews.js";
import { api } from "../../../lib/api.js";
import { useApiMutation } from "../../../lib/use-api-mutation.js";
import { reviewKeys } from "./keys.js";

type Reasoned = { id: string } & ModerationReason;
const at = (id: string, action: string) => `/api/reviews/${encodeURIComponent(id)}/${action}`;

/** A customer reports a review to the shop's admins. */
export function useReportReview() {
  return useApiMutation(({ id, reason }: Reasoned) =>
    api<{ reported: true }>(at(id, "reports"), { method: "POST", json: { reason } }),
  );
}

/** An admin hides a review: every list of reviews changes. */
export function useHideReview() {
  return useApiMutation(
    ({ id, reason }: Reasoned) => api<ModeratedReview>(at(id, "hide"), { method: "POST", json: { reason } }),
    { invalidates: [reviewKeys.all] },
  );
}

/** An admin puts a hidden review on show again. */
export function useRestoreReview() {
  return useApiMutation(
    (id: string) => api<ModeratedReview>(at(id, "restore"), { method: "POST", json: {} }),
    {
      invalidates: [reviewKeys.all],
    },
  );
}

/** A keyset-paged list of `path`, a page at a time. */
function usePagedList<T extends { nextCursor: string | null }>(key: readonly unknown[], path: string) {
  return useInfiniteQuery({
    queryKey: key,
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam, signal }) =>
      api<T>(`${path}${pageParam ? `?cursor=${encodeURIComponent(pageParam)}` : ""}`, { signal }),
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}

export const useOwnReviews = () => usePagedList<OwnReviewPage>(reviewKeys.mine(), "/api/reviews/mine");
export const useReviewReports = () =>
  usePagedList<ReviewReportPage>(reviewKeys.reports(), "/api/admin/review-reports");
export const useHiddenReviews = () =>
  usePagedList<HiddenReviewPage>(reviewKeys.hidden(), "/api/admin/reviews/hidden");
