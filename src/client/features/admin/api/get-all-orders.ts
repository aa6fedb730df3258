import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import type { OrderPage } from "../../../../shared/orders.js";
import { api } from "../../../lib/api.js";
import { orderKeys } from "../../../lib/query-keys.js";
import { type PageAt, withPageAt } from "../../../lib/use-page-position.js";

/** `query` is the filter's API query (hooks/use-orders-filter.ts); `at` where the page starts. */
function getAllOrders(query: URLSearchParams, at: PageAt, signal?: AbortSignal): Promise<OrderPage> {
  return api<OrderPage>(`/api/orders?${withPageAt(query, at)}`, { signal });
}

function allOrdersQueryOptions(query: URLSearchParams, at: PageAt, enabled = true) {
  return queryOptions({
    enabled,
    queryKey: orderKeys.allPage(query, at),
    queryFn: ({ signal }) => getAllOrders(query, at, signal),
    // The page on show stays while the next one loads, so the list does not jump.
    placeholderData: keepPreviousData,
  });
}

/** A page of the shop's orders, newest first, filtered (admin only: a customer gets a 403). */
export function useAllOrders(query: URLSearchParams, at: PageAt, enabled = true) {
  return useQuery(allOrdersQueryOptions(query, at, enabled));
}

/** The CSV export of the same filter, every page of it (GET /api/orders/export.csv). */
export const ordersExportHref = (query: URLSearchParams) => `/api/orders/export.csv?${query}`;
