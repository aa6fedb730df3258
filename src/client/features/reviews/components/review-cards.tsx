import type { Review } from "../../../../shared/reviews.js";
import { ReviewCard } from "./review-card.js";

/** Reviews as cards in the grid the page gives them. */
export function ReviewCards({ reviews, className }: { reviews: readonly Review[]; className: string }) {
  return (
    <ul className={className}>
      {reviews.map((review) => (
        <li key={review.id}>
          <ReviewCard review={review} />
        </li>
      ))}
    </ul>
  );
}
