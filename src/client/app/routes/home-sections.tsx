import { messages } from "../../../shared/messages.js";
import { PageTitle } from "../../components/page-title.js";
import { BusinessSummary } from "../../features/home/components/business-summary.js";
import { VideoHero } from "../../features/home/components/video-hero.js";
import { CustomerReviews } from "../../features/reviews/components/customer-reviews.js";
import { SiteFooter } from "../layout/site-footer.js";

/* The stand-alone routes of the home page's sections (docs/product.md, Pages). */

export function BusinessPage() {
  return (
    <>
      <PageTitle title={messages.home.businessSummary} />
      <BusinessSummary standalone />
    </>
  );
}

export function ReviewsPage() {
  return (
    <>
      <PageTitle title={messages.home.customerReviews} />
      <CustomerReviews standalone />
    </>
  );
}

export function VideoPage() {
  return (
    <>
      <PageTitle title={messages.home.video.title} />
      <VideoHero standalone />
    </>
  );
}

export function FooterPage() {
  return (
    <>
      <PageTitle title={messages.footer.title} />
      <h1 className="sr-only">{messages.footer.title}</h1>
      <SiteFooter />
    </>
  );
}
