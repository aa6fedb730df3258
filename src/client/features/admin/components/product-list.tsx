import { adminMessages } from "../../../../shared/messages/admin.js";
import { LoadError } from "../../../components/load-error.js";
import { Spinner } from "../../../components/spinner.js";
import { ADMIN_PRODUCTS_PAGE_SIZE, useAdminProducts } from "../api/get-admin-products.js";
import { AdminProductCard } from "./admin-product-card.js";

const text = adminMessages.products;

/** The catalog as product cards, newest first, a page at a time. */
export function ProductList({ page, onPage }: { page: number; onPage: (page: number) => void }) {
  const products = useAdminProducts(page);
  const pages = products.data ? Math.max(1, Math.ceil(products.data.total / ADMIN_PRODUCTS_PAGE_SIZE)) : 1;
  return (
    <section aria-labelledby="product-list-title">
      <h2 id="product-list-title" className="text-xl font-bold">
        {text.listTitle}
      </h2>
      <p className="mt-1 mb-5 text-base-content/80">{text.listLead}</p>
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
