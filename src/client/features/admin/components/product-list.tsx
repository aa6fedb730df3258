import { adminMessages } from "../../../../shared/messages/admin.js";
import { LoadError } from "../../../components/load-error.js";
import { Spinner } from "../../../components/spinner.js";
import { ADMIN_PRODUCTS_PAGE_SIZE, useAdminProducts } from "../api/get-admin-products.js";
import { AdminProductCard } from "./admin-product-card.js";

const text = adminMessages.products;

type Props = {
  page: number;
  onPage: (page: number) => void;
  /** The archived products instead of those on sale. */
  archived: boolean;
  onArchived: (archived: boolean) => void;
};

/** Which list: the products on sale, or the archived ones. */
function ViewSwitch({ archived, onArchived }: Pick<Props, "archived" | "onArchived">) {
  return (
    <fieldset className="mb-5">
      <legend className="sr-only">{text.views}</legend>
      <div className="join">
        {[false, true].map((view) => (
          <button
            key={String(view)}
            type="button"
            aria-pressed={archived === view}
            className={`btn btn-sm join-item ${archived === view ? "btn-primary" : "btn-outline border-base-content/25"}`}
            onClick={() => onArchived(view)}
          >
            {view ? text.archivedView : text.onSale}
          </button>
        ))}
      </div>
    </fieldset>
  );
}

/** The catalog as product cards, a page at a time: those on sale newest first, or the archived ones. */
export function ProductList({ page, onPage, archived, onArchived }: Props) {
  const products = useAdminProducts(page, archived);
  const pages = products.data ? Math.max(1, Math.ceil(products.data.total / ADMIN_PRODUCTS_PAGE_SIZE)) : 1;
  return (
    <section aria-labelledby="product-list-title">
      <h2 id="product-list-title" className="text-xl font-bold">
        {text.listTitle}
      </h2>
      <p className="mt-1 mb-5 text-base-content/80">{archived ? text.archivedLead : text.listLead}</p>
      <ViewSwitch archived={archived} onArchived={onArchived} />
      {products.isPending ? (
        <Spinner />
      ) : products.isError ? (
        <LoadError error={products.error} onRetry={() => void products.refetch()} />
      ) : products.data.items.length === 0 ? (
        <p className="text-base-content/75">{text.none}</p>
      ) : (
        <>
          <ul className="grid gap-6 sm:grid-cols-2 2xl:grid-cols-3">
            {products.data.items.map((product) => (
              <li key={product.id}>
                <AdminProductCard product={product} />
              </li>
            ))}
          </ul>
          {pages > 1 ? (
            <nav aria-label={text.listTitle} className="mt-6 flex items-center justify-center gap-3">
              <button
                type="button"
                className="btn btn-sm"
                disabled={page <= 1}
                onClick={() => onPage(page - 1)}
              >
                {text.previousPage}
              </button>
              <span className="text-sm" aria-live="polite">
                {text.pageOf(page, pages)}
              </span>
              <button
                type="button"
                className="btn btn-sm"
                disabled={page >= pages}
                onClick={() => onPage(page + 1)}
              >
                {text.nextPage}
              </button>
            </nav>
          ) : null}
        </>
      )}
    </section>
  );
}
