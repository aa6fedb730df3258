import { lazy, Suspense } from "react";
import { reviewMessages } from "../../../../shared/messages/reviews.js";
import type { Review } from "../../../../shared/reviews.js";
import { useSession } from "../../../lib/auth.js";
import { StarRating } from "./star-rating.js";

// Only a signed-in visitor may report or hide: their code loads when one is.
const ReviewActions = lazy(async () => ({ default: (await import("./review-actions.js")).ReviewActions }));

// Made on first use (see shared/format.ts): the first formatter loads the locale's data.
let dateFormat: Intl.DateTimeFormat | undefined;

export function ReviewCard({ review }: { review: Review }) {
  const { user } = useSession();
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
            {user ? (
              <Suspense fallback={null}>
                <ReviewActions review={review} admin={user.role === "admin"} />
              </Suspense>
            ) : null}
          </span>
        </figcaption>
      </div>
    </figure>
  );
}
