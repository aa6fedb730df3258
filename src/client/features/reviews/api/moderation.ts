import type {
  HiddenReviewPage,
  ModeratedReview,
  ModerationReason,
  OwnReviewPage,
  ReviewReportPage,
} from "../../../../shared/reviews.js";
import { api } from "../../../lib/api.js";
import { useApiMutation } from "../../../lib/use-api-mutation.js";
import { useCursorPages } from "../../../lib/use-cursor-pages.js";
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

export const useOwnReviews = () => useCursorPages<OwnReviewPage>(reviewKeys.mine(), "/api/reviews/mine");
export const useReviewReports = () =>
  useCursorPages<ReviewReportPage>(reviewKeys.reports(), "/api/admin/review-reports");
export const useHiddenReviews = () =>
  useCursorPages<HiddenReviewPage>(reviewKeys.hidden(), "/api/admin/reviews/hidden");
