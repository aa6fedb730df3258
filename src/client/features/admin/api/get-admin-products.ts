import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import type { ProductList } from "../../../../shared/catalog.js";
import { productListPath } from "../../../../shared/constants.js";
import { api } from "../../../lib/api.js";
import { catalogKeys } from "../../../lib/query-keys.js";

export const ADMIN_PRODUCTS_PAGE_SIZE = 12;

function getAdminProducts(page: number, signal?: AbortSignal): Promise<ProductList> {
  return api<ProductList>(productListPath({ sort: "newest", page, pageSize: ADMIN_PRODUCTS_PAGE_SIZE }), {
    signal,
  });
}

function adminProductsQueryOptions(page: number) {
  return queryOptions({
    queryKey: catalogKeys.adminPage(page),
    queryFn: ({ signal }) => getAdminProducts(page, signal),
  });
}

/** One page of the catalog, newest first, so a product just added is on the first page. */
export function useAdminProducts(page: number) {
  return useQuery({ ...adminProductsQueryOptions(page), placeholderData: keepPreviousData });
}
