import { useProducts } from "../../../lib/get-products.js";

export const ADMIN_PRODUCTS_PAGE_SIZE = 12;

/** One page of the catalog, newest first, so a product just added is on the first page. */
export function useAdminProducts(page: number) {
  return useProducts({ sort: "newest", page, pageSize: ADMIN_PRODUCTS_PAGE_SIZE });
}
