import type { Product } from "../../../../shared/catalog.js";
import { ProductCard } from "./product-card.js";

type Props = {
  products: readonly Product[];
  titleAs?: "h2" | "h3";
};

export function ProductGrid({ products, titleAs }: Props) {
  return (
    <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
      {products.map((product) => (
        <li key={product.id}>
          <ProductCard product={product} titleAs={titleAs} />
        </li>
      ))}
    </ul>
  );
}
