import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import type { ProductList, ProductListQuery } from "../../shared/catalog.js";
import { productListPath } from "../../shared/constants.js";
import { api } from "./api.js";
import { catalogKeys } from "./query-keys.js";

type ProductsFilter = Partial<ProductListQuery>;

function getProducts(filter: ProductsFilter, signal?: AbortSignal): Promise<ProductList> {
  // One spelling of the URL for the client and the server's preload of /tools (constants.ts).
  return api<ProductList>(productListPath(filter), { signal });
}

function productsQueryOptions(filter: ProductsFilter) {
  return queryOptions({
    queryKey: catalogKeys.list(filter),
    queryFn: ({ signal }) => getProducts(filter, signal),
  });
}

/**
 * One page of the catalog (the storefront's lists, the admin's product cards); the previous page
 * stays on screen while the next one loads.
 */
export function useProducts(filter: ProductsFilter) {
  return useQuery({ ...productsQueryOptions(filter), placeholderData: keepPreviousData });
}
