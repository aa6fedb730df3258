import { homeMessages } from "../../../shared/messages/home.js";
import { PageTitle } from "../../components/page-title.js";
import { ExploreProducts } from "../../features/catalog/components/explore-products.js";
import { BusinessSummary } from "../../features/home/components/business-summary.js";
import { HeroSlider } from "../../features/home/components/hero-slider.js";
import { VideoCards } from "../../features/home/components/video-cards.js";
import { VideoHero } from "../../features/home/components/video-hero.js";
import { CustomerReviews } from "../../features/reviews/components/customer-reviews.js";

/** The home page's sections 1 to 6; the root layout adds section 7, the footer. */
export function HomePage() {
  return (
    <>
      <PageTitle />
      <h1 className="sr-only">{homeMessages.heading}</h1>
      <HeroSlider />
      <ExploreProducts />
      <BusinessSummary />
      <CustomerReviews />
      <VideoHero />
      <VideoCards />
    </>
  );
}
