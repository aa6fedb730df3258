import type { ReactNode } from "react";
import { Link, useParams } from "react-router";
import type { Product } from "../../../../shared/catalog.js";
import { CATEGORY_LABELS, MIN_ORDER_QUANTITY } from "../../../../shared/constants.js";
import { catalogMessages } from "../../../../shared/messages/catalog.js";
import { commonMessages } from "../../../../shared/messages/common.js";
import { pricingMessages } from "../../../../shared/messages/pricing.js";
import { problemCodes } from "../../../../shared/problem-codes.js";
import { LoadError } from "../../../components/load-error.js";
import { PageTitle } from "../../../components/page-title.js";
import { ProductImage } from "../../../components/product-image.js";
import { Spinner } from "../../../components/spinner.js";
import { ApiError, hasCode } from "../../../lib/api.js";
import { formatCount, formatPrice } from "../../../lib/format.js";
import { useProduct } from "../../../lib/get-product.js";
import { paths } from "../../../lib/paths.js";

const text = catalogMessages;

type Props = {
  /** What follows the description, e.g. the booking form, composed by the route. */
  renderAction?: (product: Product) => ReactNode;
};

/** Why the page has no product to show (archived, or none by that id), and the way back to the list. */
function Gone({ title, lead }: { title: string; lead: string }) {
  return (
    <div className="text-center">
      <PageTitle title={title} />
      <h1 className="text-3xl font-bold">{title}</h1>
      <p className="mt-4 text-base-content/80">{lead}</p>
      <Link to={paths.tools} className="btn btn-primary mt-8">
        {text.backToProducts}
      </Link>
    </div>
  );
}

/**
 * A product's volume prices (docs/product.md, "Prices"): a row per range of units, from the
 * smallest order at the list price (when the first tier starts above it) to the last tier's "N+".
 */
function VolumePrices({ price, tiers }: { price: number; tiers: Product["priceTiers"] }) {
  const t = pricingMessages.tiers;
  const rows = (
    tiers[0] && tiers[0].min > MIN_ORDER_QUANTITY ? [{ min: MIN_ORDER_QUANTITY, price }] : []
  ).concat(tiers);
  return (
    <table className="table table-sm mt-4 w-auto">
      <caption className="text-left text-sm font-semibold">{t.title}</caption>
      <thead>
        <tr>
          <th scope="col">{t.units}</th>
          <th scope="col" className="text-right">
            {t.each}
          </th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row, i) => {
          const next = rows[i + 1];
          const from = formatCount(row.min);
          return (
            <tr key={row.min}>
              <th scope="row" className="font-normal">
                {next ? t.unitsRange(from, formatCount(next.min - 1)) : t.unitsFrom(from)}
              </th>
              <td className="text-right font-semibold tabular-nums">{formatPrice(row.price)}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

/** /tool/:id: everything about one product (signed-in customers only). */
export function ProductPage({ renderAction }: Props) {
  const { id = "" } = useParams();
  const product = useProduct(id);

  if (product.isPending) return <Spinner />;
  if (product.isError) {
    const missing =
      product.error instanceof ApiError && (product.error.status === 404 || product.error.status === 400);
    // An archived product answers 410 with its code: the page says it is no longer sold.
    const archived = hasCode(product.error, problemCodes.productArchived);
    return (
      <div className="mx-auto max-w-3xl px-4 py-16 sm:px-6">
        {archived ? (
          <Gone title={text.archived} lead={text.archivedLead} />
        ) : missing ? (
          <Gone title={commonMessages.notFound} lead={text.productMissing} />
        ) : (
          <LoadError error={product.error} onRetry={() => void product.refetch()} />
        )}
      </div>
    );
  }

  const item = product.data;
  return (
    <article className="mx-auto max-w-7xl px-4 py-10 sm:px-6">
      <PageTitle title={item.name} />
      <Link to={paths.tools} className="link link-hover text-sm text-base-content/80">
        ← {text.backToProducts}
      </Link>
      <div className="mt-6 grid gap-10 lg:grid-cols-2">
        <div className="flex flex-col gap-6">
          <ProductImage
            src={item.image}
            alt={item.name}
            loading="eager"
            whole={{
              frame: "overflow-hidden rounded-box border border-base-content/10 bg-base-200",
              inset: "p-6",
            }}
          />
          <video
            controls
            muted
            loop
            playsInline
            preload="none"
            poster="/media/video/product-poster.webp"
            width={1280}
            height={720}
            aria-label={text.videoLabel}
            className="aspect-video h-auto w-full rounded-box border border-base-content/10 bg-base-300"
          >
            <source src="/media/video/product.webm" type="video/webm" />
            <source src="/media/video/product.mp4" type="video/mp4" />
          </video>
        </div>
        <div>
          <p className="text-sm font-semibold uppercase tracking-wider text-primary">
            {CATEGORY_LABELS[item.category]}
          </p>
          <h1 className="mt-2 text-3xl font-extrabold tracking-tight sm:text-4xl">{item.name}</h1>
          <p className="mt-6 flex items-baseline gap-2">
            <span className="text-4xl font-bold">{formatPrice(item.price)}</span>
            <span className="text-base-content/75">{text.unitPrice}</span>
          </p>
          {item.priceTiers.length > 0 ? <VolumePrices price={item.price} tiers={item.priceTiers} /> : null}
          <ul className="mt-4 flex flex-wrap gap-2">
            <li className="badge badge-lg badge-soft badge-success">
              {text.available(formatCount(item.quantity))}
            </li>
            <li className="badge badge-lg badge-soft badge-info">{text.minimumOrder(MIN_ORDER_QUANTITY)}</li>
          </ul>
          <p className="mt-8 whitespace-pre-line text-lg leading-relaxed text-base-content/85">
            {item.description}
          </p>
          {renderAction ? <div className="mt-10">{renderAction(item)}</div> : null}
        </div>
      </div>
    </article>
  );
}
