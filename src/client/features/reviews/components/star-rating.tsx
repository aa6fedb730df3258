import { RATING_MAX, starCount } from "../../../../shared/constants.js";
import { reviewMessages } from "../../../../shared/messages/reviews.js";
import { Icon } from "../../../components/icon.js";

const STAR_PATH =
  "M12 2.5l2.94 5.96 6.58.96-4.76 4.64 1.12 6.55L12 17.52l-5.88 3.09 1.12-6.55L2.48 9.42l6.58-.96L12 2.5z";

const STAR_POSITIONS = Array.from({ length: RATING_MAX }, (_, index) => index + 1);

/** 1 to 5 stars for a rating, read out as "Rated N out of 5". */
export function StarRating({ rating }: { rating: number }) {
  const filled = starCount(rating);
  return (
    <span role="img" aria-label={reviewMessages.rated(filled)} className="inline-flex gap-0.5">
      {STAR_POSITIONS.map((position) => (
        <Icon
          key={position}
          path={STAR_PATH}
          className={position <= filled ? "h-5 w-5 fill-warning" : "h-5 w-5 fill-base-content/25"}
        />
      ))}
    </span>
  );
}
