import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import type { ProductList, ProductListQuery } from "../../../../shared/catalog.js";
import { api, withQuery } from "../../../lib/api.js";

export type ProductsFilter = Partial<ProductListQuery>;

export function getProducts(filter: ProductsFilter, signal?: AbortSignal): Promise<ProductList> {
  return api<ProductList>(
    withQuery("/api/products", {
      search: filter.search,
      category: filter.category,
      sort: filter.sort,
      page: filter.page,
      pageSize: filter.pageSize,
    }),
    { signal },
  );
}

export function productsQueryOptions(filter: ProductsFilter) {
  return queryOptions({
    queryKey: ["products", "list", filter],
    queryFn: ({ signal }) => getProducts(filter, signal),
  });
}

/** One page of the catalog; the previous page stays on screen while the next one loads. */
export function useProducts(filter: ProductsFilter) {
  return useQuery({ ...productsQueryOptions(filter), placeholderData: keepPreviousData });
}
