import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import type { OrderPage } from "../../../../shared/orders.js";
import { api } from "../../../lib/api.js";

/** Under "orders", beside the customer's own list, so invalidating ["orders"] refreshes both. */
export const allOrdersQueryKey = ["orders", "all"] as const;

/** `query` is the filter's API query (hooks/use-orders-filter.ts); `cursor` the page's. */
export function getAllOrders(
  query: URLSearchParams,
  cursor?: string,
  signal?: AbortSignal,
): Promise<OrderPage> {
  const params = new URLSearchParams(query);
  if (cursor) params.set("cursor", cursor);
  return api<OrderPage>(`/api/orders?${params}`, { signal });
}

export function allOrdersQueryOptions(query: URLSearchParams, cursor?: string, enabled = true) {
  return queryOptions({
    enabled,
    queryKey: [...allOrdersQueryKey, query.toString(), cursor ?? ""],
    queryFn: ({ signal }) => getAllOrders(query, cursor, signal),
    // The page on show stays while the next one loads, so the list does not jump.
    placeholderData: keepPreviousData,
  });
}

/** A page of the shop's orders, newest first, filtered (admin only: a customer gets a 403). */
export function useAllOrders(query: URLSearchParams, cursor?: string, enabled = true) {
  return useQuery(allOrdersQueryOptions(query, cursor, enabled));
}

/** The CSV export of the same filter, every page of it (GET /api/orders/export.csv). */
export const ordersExportHref = (query: URLSearchParams) => `/api/orders/export.csv?${query}`;
