import type { Product } from "../../shared/catalog.js";

type Props = {
  product: Product;
  /**
   * "first": the page's largest image, likely its Largest Contentful Paint, fetched at once and
   * first; "eager": in view on arrival, fetched at once; "lazy" (default): fetched when scrolled near.
   */
  loading?: "first" | "eager" | "lazy";
};

/** The top of a product card: the product's picture, cropped to the card's 4:3. */
export function ProductImage({ product, loading = "lazy" }: Props) {
  return (
    <figure className="aspect-[4/3] bg-base-300">
      <img
        src={product.image}
        alt={product.name}
        width={800}
        height={600}
        loading={loading === "lazy" ? "lazy" : "eager"}
        fetchPriority={loading === "first" ? "high" : "auto"}
        decoding="async"
        className="h-full w-full object-cover"
      />
    </figure>
  );
}
