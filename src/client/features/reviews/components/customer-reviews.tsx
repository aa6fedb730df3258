import { HOME_REVIEW_COUNT } from "../../../../shared/constants.js";
import { messages } from "../../../../shared/messages.js";
import { LoadError } from "../../../components/load-error.js";
import { SectionHeader } from "../../../components/section-header.js";
import { Spinner } from "../../../components/spinner.js";
import { useReviews } from "../api/get-reviews.js";
import { ReviewCard } from "./review-card.js";

/** Home section 4 and the /reviews page: the newest three reviews. */
export function CustomerReviews({ standalone = false }: { standalone?: boolean }) {
  const reviews = useReviews(HOME_REVIEW_COUNT);
  return (
    <section aria-labelledby="customer-reviews" className="mx-auto max-w-7xl px-4 py-16 sm:px-6">
      <SectionHeader
        id="customer-reviews"
        level={standalone ? 1 : 2}
        title={messages.home.customerReviews}
        lead={messages.home.customerReviewsLead}
      />
      {reviews.isPending ? (
        <Spinner />
      ) : reviews.isError ? (
        <LoadError onRetry={() => void reviews.refetch()} />
      ) : reviews.data.length === 0 ? (
        <p className="text-base-content/75">{messages.review.none}</p>
      ) : (
        <ul className="grid gap-6 md:grid-cols-3">
          {reviews.data.map((review) => (
            <li key={review.id}>
              <ReviewCard review={review} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
