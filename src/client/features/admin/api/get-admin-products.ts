import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import type { AdminProduct, AdminProductList } from "../../../../shared/catalog.js";
import { fetcherOf } from "../../../lib/api.js";
import { catalogKeys } from "../../../lib/query-keys.js";

export const ADMIN_PRODUCTS_PAGE_SIZE = 12;

/**
 * One page of the admin's products: those on sale newest first, so a product just added is on the
 * first page, or the archived ones, most recently archived first. The page on show stays while the
 * next one loads.
 */
export function useAdminProducts(page: number, archived: boolean) {
  const query = new URLSearchParams({
    archived: String(archived),
    page: String(page),
    pageSize: String(ADMIN_PRODUCTS_PAGE_SIZE),
  });
  return useQuery({
    queryKey: catalogKeys.admin(archived, page),
    queryFn: fetcherOf<AdminProductList>(`/api/admin/products?${query}`),
    placeholderData: keepPreviousData,
  });
}

/** A product as it is now, archived or not (a card's Edit form asks for it when it opens). */
export function adminProductQueryOptions(id: string) {
  return queryOptions({
    queryKey: catalogKeys.adminDetail(id),
    queryFn: fetcherOf<AdminProduct>(`/api/admin/products/${encodeURIComponent(id)}`),
  });
}
