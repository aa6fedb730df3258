import { reviewMessages } from "../../../../shared/messages/reviews.js";
import type { Review } from "../../../../shared/reviews.js";
import { StarRating } from "./star-rating.js";

// Made on first use (see shared/format.ts): the first formatter loads the locale's data.
let dateFormat: Intl.DateTimeFormat | undefined;

export function ReviewCard({ review }: { review: Review }) {
  dateFormat ??= new Intl.DateTimeFormat("en-US", { dateStyle: "medium" });
  return (
    <figure className="card h-full border border-base-content/10 bg-base-200">
      <div className="card-body gap-4">
        <StarRating rating={review.rating} />
        <blockquote className="flex-1 text-base-content/90">
          <p className="whitespace-pre-line">{review.comment}</p>
        </blockquote>
        <figcaption className="flex flex-wrap items-center justify-between gap-2 border-t border-base-content/10 pt-4">
          <span className="flex flex-wrap items-center gap-2">
            <span className="font-semibold">{review.name}</span>
            {/* Set by the server for reviews written by an admin; no name can earn it. */}
            {review.staff ? (
              <span className="badge badge-primary badge-sm font-semibold">{reviewMessages.staff}</span>
            ) : null}
          </span>
          <span className="flex items-center gap-2 text-sm text-base-content/75">
            {review.verified ? (
              <span className="badge badge-success badge-soft badge-sm">{reviewMessages.verified}</span>
            ) : null}
            <time dateTime={review.createdAt}>{dateFormat.format(new Date(review.createdAt))}</time>
          </span>
        </figcaption>
      </div>
    </figure>
  );
}
