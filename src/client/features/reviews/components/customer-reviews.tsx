import { HOME_REVIEW_COUNT } from "../../../../shared/constants.js";
import { homeMessages } from "../../../../shared/messages/home.js";
import { TitledSection } from "../../../components/titled-section.js";
import { ReviewList } from "./review-list.js";

/** Home section 4 and the /reviews page: the newest three reviews. */
export function CustomerReviews({ standalone = false }: { standalone?: boolean }) {
  return (
    <TitledSection
      id="customer-reviews"
      level={standalone ? 1 : 2}
      title={homeMessages.customerReviews}
      lead={homeMessages.customerReviewsLead}
    >
      <ReviewList limit={HOME_REVIEW_COUNT} className="grid gap-6 md:grid-cols-3" />
    </TitledSection>
  );
}
