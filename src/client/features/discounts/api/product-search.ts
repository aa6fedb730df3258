import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { ProductList } from "../../../../shared/catalog.js";
import { fetcherOf } from "../../../lib/api.js";
import { discountKeys } from "./keys.js";

const RESULTS = 8;

/** The products on sale whose names match `term` (the storefront's search), for a code's form. */
export function useProductSearch(term: string) {
  const query = new URLSearchParams({ search: term, pageSize: String(RESULTS) });
  return useQuery({
    queryKey: discountKeys.productSearch(term),
    queryFn: fetcherOf<ProductList>(`/api/products?${query}`),
    enabled: term.length > 0,
    placeholderData: keepPreviousData,
  });
}
