import type { ComponentProps } from "react";
import { Link } from "react-router";
import type { Product } from "../../../../shared/catalog.js";
import { CATEGORY_LABELS } from "../../../../shared/constants.js";
import { catalogMessages } from "../../../../shared/messages/catalog.js";
import { ProductImage } from "../../../components/product-image.js";
import { formatCount, formatPrice } from "../../../lib/format.js";
import { paths } from "../../../lib/paths.js";

type Props = {
  product: Product;
  /** The heading level that fits the page the card sits in. */
  titleAs?: "h2" | "h3";
  imageLoading?: ComponentProps<typeof ProductImage>["loading"];
};

export function ProductCard({ product, titleAs: Title = "h3", imageLoading }: Props) {
  return (
    <article className="card h-full border border-base-content/10 bg-base-200 transition-colors hover:border-primary/60">
      <ProductImage src={product.image} alt={product.name} loading={imageLoading} />
      <div className="card-body gap-3">
        <p className="flex-none text-xs font-semibold uppercase tracking-wider text-primary">
          {CATEGORY_LABELS[product.category]}
        </p>
        <Title className="card-title text-lg leading-snug">{product.name}</Title>
        <p className="line-clamp-3 flex-none text-sm text-base-content/75">{product.description}</p>
        <div className="mt-auto flex items-baseline justify-between gap-2 pt-2">
          <p className="flex-none text-2xl font-bold">{formatPrice(product.price)}</p>
          <p className="flex-none text-sm text-base-content/75">
            {catalogMessages.inStock(formatCount(product.quantity))}
          </p>
        </div>
        <Link to={paths.tool(product.id)} className="btn btn-primary btn-block">
          {catalogMessages.purchase}
          <span className="sr-only">: {product.name}</span>
        </Link>
      </div>
    </article>
  );
}
