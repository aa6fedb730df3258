import { reviewMessages } from "../../../../shared/messages/reviews.js";
import { LoadError } from "../../../components/load-error.js";
import { Spinner } from "../../../components/spinner.js";
import { useNewestReviews } from "../api/get-reviews.js";
import { ReviewCards } from "./review-cards.js";

type Props = {
  /** How many of the newest reviews. */
  limit: number;
  /** The grid the cards sit in, which depends on the width the page gives the list. */
  className: string;
};

/** The newest reviews as cards, with the loading, failed and empty states. */
export function ReviewList({ limit, className }: Props) {
  const reviews = useNewestReviews(limit);
  return reviews.isPending ? (
    <Spinner />
  ) : reviews.isError ? (
    <LoadError error={reviews.error} onRetry={() => void reviews.refetch()} />
  ) : reviews.data.length === 0 ? (
    <p className="text-base-content/75">{reviewMessages.none}</p>
  ) : (
    <ReviewCards reviews={reviews.data} className={className} />
  );
}
