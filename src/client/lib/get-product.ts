import { queryOptions, useQuery } from "@tanstack/react-query";
import type { Product } from "../../shared/catalog.js";
import { api } from "./api.js";
import { catalogKeys } from "./query-keys.js";

function getProduct(id: string, signal?: AbortSignal): Promise<Product> {
  return api<Product>(`/api/products/${encodeURIComponent(id)}`, { signal });
}

function productQueryOptions(id: string) {
  return queryOptions({
    queryKey: catalogKeys.detail(id),
    queryFn: ({ signal }) => getProduct(id, signal),
  });
}

export function useProduct(id: string) {
  return useQuery(productQueryOptions(id));
}
