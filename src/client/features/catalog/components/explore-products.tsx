import { Link } from "react-router";
import { HOME_PRODUCT_COUNT } from "../../../../shared/constants.js";
import { homeMessages } from "../../../../shared/messages/home.js";
import { LoadError } from "../../../components/load-error.js";
import { Spinner } from "../../../components/spinner.js";
import { TitledSection } from "../../../components/titled-section.js";
import { useProducts } from "../../../lib/get-products.js";
import { paths } from "../../../lib/paths.js";
import { ProductGrid } from "./product-grid.js";

/** Home section 2: a first look at the catalog, each card leading to its product page. */
export function ExploreProducts() {
  const products = useProducts({ pageSize: HOME_PRODUCT_COUNT });
  return (
    <TitledSection
      id="explore-products"
      title={homeMessages.exploreProducts}
      lead={homeMessages.exploreProductsLead}
      action={
        <Link to={paths.tools} className="btn btn-outline btn-primary">
          {homeMessages.allProducts}
        </Link>
      }
    >
      {products.isPending ? (
        <Spinner />
      ) : products.isError ? (
        <LoadError error={products.error} onRetry={() => void products.refetch()} />
      ) : (
        <ProductGrid products={products.data.items} />
      )}
    </TitledSection>
  );
}
