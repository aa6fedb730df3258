import { commonMessages } from "../../../shared/messages/common.js";
import { homeMessages } from "../../../shared/messages/home.js";
import { PageTitle } from "../../components/page-title.js";
import { BusinessSummary } from "../../features/home/components/business-summary.js";
import { VideoHero } from "../../features/home/components/video-hero.js";
import { CustomerReviews } from "../../features/reviews/components/customer-reviews.js";
import { SiteFooter } from "../layout/site-footer.js";

/* The stand-alone routes of the home page's sections (docs/product.md, Pages). */

export function BusinessPage() {
  return (
    <>
      <PageTitle title={homeMessages.businessSummary} />
      <BusinessSummary standalone />
    </>
  );
}

export function ReviewsPage() {
  return (
    <>
      <PageTitle title={homeMessages.customerReviews} />
      <CustomerReviews standalone />
    </>
  );
}

export function VideoPage() {
  return (
    <>
      <PageTitle title={homeMessages.video.title} />
      <VideoHero standalone />
    </>
  );
}

export function FooterPage() {
  return (
    <>
      <PageTitle title={commonMessages.footer.title} />
      <h1 className="sr-only">{commonMessages.footer.title}</h1>
      <SiteFooter />
    </>
  );
}
