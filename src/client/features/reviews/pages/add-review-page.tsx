import { dashboardMessages } from "../../../../shared/messages/dashboard.js";
import { reviewMessages } from "../../../../shared/messages/reviews.js";
import { DashboardHeading } from "../../../components/dashboard-heading.js";
import { useSession } from "../../../lib/auth.js";
import { OwnReviews } from "../components/own-reviews.js";
import { ReviewFeed } from "../components/review-feed.js";
import { ReviewForm } from "../components/review-form.js";

const text = reviewMessages.form;

/**
 * /dashboard/addReview: write a review, then the author's own (with the shop's reason where one is
 * hidden), then every review, newest first, loaded as the visitor goes.
 */
export function AddReviewPage() {
  const { user } = useSession();
  return (
    <>
      <DashboardHeading title={dashboardMessages.addReview} lead={dashboardMessages.addReviewLead} />
      <div className="flex flex-col gap-10">
        <ReviewForm name={user?.name ?? ""} />
        {user ? <OwnReviews /> : null}
        <section aria-labelledby="all-reviews-title">
          <h2 id="all-reviews-title" className="text-xl font-bold">
            {text.allReviews}
          </h2>
          <p className="mt-1 mb-5 text-base-content/80">{text.allReviewsLead}</p>
          <ReviewFeed className="grid gap-6 md:grid-cols-2 2xl:grid-cols-3" />
        </section>
      </div>
    </>
  );
}
