import { useCallback, useEffect, useRef } from "react";
import { Link } from "react-router";
import { DEFAULT_PAGE_SIZE, PRODUCT_SORTS, type ProductSort } from "../../../../shared/constants.js";
import { catalogMessages } from "../../../../shared/messages/catalog.js";
import { LoadError } from "../../../components/load-error.js";
import { PageHeader } from "../../../components/page-header.js";
import { SearchBox } from "../../../components/search-box.js";
import { Spinner } from "../../../components/spinner.js";
import { useProducts } from "../../../lib/get-products.js";
import { paths } from "../../../lib/paths.js";
import { CategoryFilter } from "../components/category-filter.js";
import { Pagination } from "../components/pagination.js";
import { ProductGrid } from "../components/product-grid.js";
import { filterQuery, useCatalogFilter } from "../hooks/use-catalog-filter.js";

const text = catalogMessages;

/** /tools: the whole catalog with search, category, sort and pages. */
export function ProductsPage() {
  const { filter, update } = useCatalogFilter();
  const products = useProducts({ ...filter, pageSize: DEFAULT_PAGE_SIZE });
  const onSearch = useCallback((search: string) => update({ search }, { replace: true }), [update]);
  const sortField = useRef<HTMLSelectElement>(null);

  // Chosen in a prerendered page before its code ran: list in that order.
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, as the page's code takes over
  useEffect(() => {
    const chosen = sortField.current?.value;
    if (chosen && chosen !== filter.sort) update({ sort: chosen as ProductSort });
  }, []);

  const total = products.data?.total ?? 0;
  const totalExact = products.data?.totalExact ?? true;
  const first = (filter.page - 1) * DEFAULT_PAGE_SIZE + 1;
  const last = first - 1 + (products.data?.items.length ?? 0);
  // A search that stopped counting: a full page may have another after it.
  const pageCount = Math.max(
    Math.ceil(total / DEFAULT_PAGE_SIZE),
    !totalExact && last - first + 1 === DEFAULT_PAGE_SIZE ? filter.page + 1 : 0,
  );
  // "Best match" orders a search; without one there is nothing to match.
  const sorts = PRODUCT_SORTS.filter((sort) => sort !== "relevance" || filter.search !== "");
  const filtered = filter.search !== "" || filter.category !== undefined;

  return (
    <>
      <PageHeader title={catalogMessages.title} lead={catalogMessages.lead} />
      <div className="mx-auto max-w-7xl px-4 py-10 sm:px-6">
        <div className="flex flex-col gap-6">
          <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
            <SearchBox
              label={text.searchLabel}
              placeholder={text.searchPlaceholder}
              maxLength={100}
              value={filter.search}
              onSearch={onSearch}
              className="w-full sm:max-w-sm"
            />
            <div className="w-full sm:w-56">
              <label htmlFor="product-sort" className="mb-1 block text-sm font-medium">
                {text.sortLabel}
              </label>
              <select
                ref={sortField}
                id="product-sort"
                value={filter.sort}
                onChange={(event) => update({ sort: event.target.value as ProductSort })}
                className="select w-full"
              >
                {sorts.map((sort) => (
                  <option key={sort} value={sort}>
                    {text.sorts[sort]}
                  </option>
                ))}
              </select>
            </div>
          </div>
          <CategoryFilter
            selected={filter.category}
            hrefFor={(category) => `${paths.tools}${filterQuery({ ...filter, category, page: 1 })}`}
          />
        </div>

        {/* A screen high while loading, so the footer does not show and then jump away as the list arrives. */}
        <div className={products.isPending ? "mt-8 min-h-dvh" : "mt-8"}>
          {products.isPending ? (
            <Spinner />
          ) : products.isError ? (
            <LoadError error={products.error} onRetry={() => void products.refetch()} />
          ) : products.data.items.length === 0 ? (
            <div className="rounded-box border border-dashed border-base-content/25 px-6 py-16 text-center">
              <p role="status" className="text-lg">
                {catalogMessages.noProducts}
              </p>
              {filtered || filter.page > 1 ? (
                <Link to={paths.tools} className="btn btn-primary mt-6">
                  {text.clearFilters}
                </Link>
              ) : null}
            </div>
          ) : (
            <>
              <p role="status" className="mb-6 text-sm text-base-content/80">
                {totalExact ? text.results(first, last, total) : text.resultsMoreThan(first, last, total)}
              </p>
              <div
                aria-busy={products.isPlaceholderData}
                className={products.isPlaceholderData ? "opacity-60" : ""}
              >
                <ProductGrid products={products.data.items} titleAs="h2" aboveTheFold />
              </div>
              <Pagination
                page={filter.page}
                pageCount={pageCount}
                hrefFor={(page) => `${paths.tools}${filterQuery({ ...filter, page })}`}
              />
            </>
          )}
        </div>
      </div>
    </>
  );
}
