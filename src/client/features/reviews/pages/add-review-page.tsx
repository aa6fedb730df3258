import { messages } from "../../../../shared/messages.js";
import { LoadError } from "../../../components/load-error.js";
import { Spinner } from "../../../components/spinner.js";
import { useSession } from "../../../lib/auth.js";
import { DashboardHeading } from "../../dashboard/components/dashboard-heading.js";
import { useReviews } from "../api/get-reviews.js";
import { ReviewCard } from "../components/review-card.js";
import { ReviewForm } from "../components/review-form.js";

const text = messages.reviewForm;

/** /dashboard/addReview: write a review, then every review, newest first. */
export function AddReviewPage() {
  const { user } = useSession();
  const reviews = useReviews();
  return (
    <>
      <DashboardHeading title={messages.dashboard.addReview} lead={messages.dashboard.addReviewLead} />
      <div className="flex flex-col gap-10">
        <ReviewForm name={user?.name ?? ""} />
        <section aria-labelledby="all-reviews-title">
          <h2 id="all-reviews-title" className="text-xl font-bold">
            {text.allReviews}
          </h2>
          <p className="mt-1 mb-5 text-base-content/80">{text.allReviewsLead}</p>
          {reviews.isPending ? (
            <Spinner />
          ) : reviews.isError ? (
            <LoadError onRetry={() => void reviews.refetch()} />
          ) : reviews.data.length === 0 ? (
            <p className="text-base-content/75">{messages.review.none}</p>
          ) : (
            <ul className="grid gap-6 md:grid-cols-2 2xl:grid-cols-3">
              {reviews.data.map((review) => (
                <li key={review.id}>
                  <ReviewCard review={review} />
                </li>
              ))}
            </ul>
          )}
        </section>
      </div>
    </>
  );
}
