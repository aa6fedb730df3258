import { reviewMessages } from "../../../../shared/messages/reviews.js";
import { LoadingState } from "../../../components/loading-state.js";
import { MoreButton } from "../../../components/more-button.js";
import { useOwnReviews } from "../api/moderation.js";
import { StarRating } from "./star-rating.js";

const m = reviewMessages.moderation;

/** The signed-in author's own reviews: on show, or hidden by the shop with its reason. */
export function OwnReviews() {
  const own = useOwnReviews();
  return (
    <section aria-labelledby="own-reviews-title">
      <h2 id="own-reviews-title" className="text-xl font-bold">
        {m.yours}
      </h2>
      <p className="mt-1 mb-5 text-base-content/80">{m.yoursLead}</p>
      {own.isSuccess ? (
        <div className="flex flex-col gap-4">
          <ul className="grid gap-4 md:grid-cols-2">
            {own.data.pages
              .flatMap((page) => page.items)
              .map((review) => (
                <li key={review.id} className="card border border-base-content/10 bg-base-200">
                  <div className="card-body gap-3">
                    <StarRating rating={review.rating} />
                    <p className="whitespace-pre-line">{review.comment}</p>
                    {review.hidden ? (
                      <p className="alert alert-warning alert-soft text-sm">
                        {m.hiddenNotice(review.hidden.reason)}
                      </p>
                    ) : (
                      <span className="badge badge-success badge-soft badge-sm">{m.onShow}</span>
                    )}
                  </div>
                </li>
              ))}
          </ul>
          {own.data.pages[0]?.items.length === 0 ? (
            <p className="text-base-content/75">{m.yoursNone}</p>
          ) : null}
          <MoreButton pages={own} className="btn btn-sm self-start" spinner="xs">
            {m.more}
          </MoreButton>
        </div>
      ) : (
        <LoadingState query={own} />
      )}
    </section>
  );
}
