import type { Product } from "../../../../shared/catalog.js";
import { ProductCard } from "./product-card.js";

/** The widest row of the grid: the cards in view when a page opens on it. */
const FIRST_ROW = 3;

type Props = {
  products: readonly Product[];
  titleAs?: "h2" | "h3";
  /** The grid is the page's main content, at the top: its first row is fetched at once. */
  aboveTheFold?: boolean;
};

export function ProductGrid({ products, titleAs, aboveTheFold = false }: Props) {
  const loadingOf = (index: number) =>
    !aboveTheFold || index >= FIRST_ROW ? "lazy" : index === 0 ? "first" : "eager";
  return (
    <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
      {products.map((product, index) => (
        <li key={product.id}>
          <ProductCard product={product} titleAs={titleAs} imageLoading={loadingOf(index)} />
        </li>
      ))}
    </ul>
  );
}
