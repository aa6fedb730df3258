import { Link } from "react-router";
import type { AdminOverview } from "../../../../shared/admin.js";
import { adminMessages } from "../../../../shared/messages/admin.js";
import { formatCount } from "../../../lib/format.js";
import { paths } from "../../../lib/paths.js";

const text = adminMessages.overview;

type Card = { label: string; value: number; to: string; tone: string };

/** The overview's figures, each a link to the page where the admin acts on it. */
export function OverviewCards({ overview }: { overview: AdminOverview }) {
  const cards: Card[] = [
    { label: text.users, value: overview.users, to: paths.dashboard.users, tone: "text-primary" },
    {
      label: text.unpaid,
      value: overview.orders.unpaid,
      to: paths.dashboard.manageOrders,
      tone: "text-warning",
    },
    {
      label: text.toShip,
      value: overview.orders.paidNotShipped,
      to: paths.dashboard.manageOrders,
      tone: "text-secondary",
    },
    {
      label: text.shipped,
      value: overview.orders.shipped,
      to: paths.dashboard.manageOrders,
      tone: "text-success",
    },
    {
      label: text.refunded,
      value: overview.orders.refunded,
      to: `${paths.dashboard.manageOrders}?status=refunded`,
      tone: "text-secondary",
    },
    {
      label: text.expired,
      value: overview.orders.expired,
      to: `${paths.dashboard.manageOrders}?status=expired`,
      tone: "text-base-content",
    },
    {
      label: text.lowStock,
      value: overview.lowStockCount,
      to: paths.dashboard.addProduct,
      tone: "text-error",
    },
  ];
  return (
    <div className="flex flex-col gap-8">
      <section aria-labelledby="overview-figures">
        <h2 id="overview-figures" className="sr-only">
          {text.title}
        </h2>
        <ul className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
          {cards.map((card) => (
            <li key={card.label}>
              <Link
                to={card.to}
                className="card h-full border border-base-content/10 bg-base-200 transition-colors hover:border-primary/60"
              >
                <span className="card-body gap-2">
                  <span className="text-sm text-base-content/80">{card.label}</span>
                  <span className={`text-4xl font-extrabold ${card.tone}`}>{formatCount(card.value)}</span>
                </span>
              </Link>
            </li>
          ))}
        </ul>
      </section>
      {overview.lowStock.length > 0 ? (
        <section
          aria-labelledby="overview-low-stock"
          className="card border border-base-content/10 bg-base-200"
        >
          <div className="card-body gap-3">
            <h2 id="overview-low-stock" className="card-title text-lg">
              {text.lowStock}
            </h2>
            <ul className="divide-y divide-base-content/10">
              {overview.lowStock.map((product) => (
                <li key={product.id} className="flex items-center justify-between gap-4 py-2">
                  <Link
                    to={paths.dashboard.stock(product.id)}
                    className="link link-hover"
                    aria-label={text.stockOf(product.name)}
                  >
                    {product.name}
                  </Link>
                  <span className="flex flex-wrap items-center justify-end gap-2 whitespace-nowrap">
                    <span className="badge badge-error badge-soft">
                      {adminMessages.products.stock(formatCount(product.quantity))}
                    </span>
                    <span className="text-sm text-base-content/80">
                      {text.belowThreshold(formatCount(product.threshold))}
                    </span>
                  </span>
                </li>
              ))}
            </ul>
          </div>
        </section>
      ) : null}
    </div>
  );
}
