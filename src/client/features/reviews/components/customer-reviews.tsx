import { HOME_REVIEW_COUNT } from "../../../../shared/constants.js";
import { homeMessages } from "../../../../shared/messages/home.js";
import { SectionHeader } from "../../../components/section-header.js";
import { ReviewList } from "./review-list.js";

/** Home section 4 and the /reviews page: the newest three reviews. */
export function CustomerReviews({ standalone = false }: { standalone?: boolean }) {
  return (
    <section aria-labelledby="customer-reviews" className="mx-auto max-w-7xl px-4 py-16 sm:px-6">
      <SectionHeader
        id="customer-reviews"
        level={standalone ? 1 : 2}
        title={homeMessages.customerReviews}
        lead={homeMessages.customerReviewsLead}
      />
      <ReviewList limit={HOME_REVIEW_COUNT} className="grid gap-6 md:grid-cols-3" />
    </section>
  );
}
