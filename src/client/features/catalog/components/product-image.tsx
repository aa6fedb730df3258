import type { Product } from "../../../../shared/catalog.js";

/** The top of a product card: the product's picture, cropped to the card's 4:3. */
export function ProductImage({ product }: { product: Product }) {
  return (
    <figure className="aspect-[4/3] bg-base-300">
      <img
        src={product.image}
        alt={product.name}
        width={800}
        height={600}
        loading="lazy"
        decoding="async"
        className="h-full w-full object-cover"
      />
    </figure>
  );
}
