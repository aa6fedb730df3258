import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import type { OrderPage } from "../../../../shared/orders.js";
import { api } from "../../../lib/api.js";
import { type PageAt, withPageAt } from "../../../lib/use-page-position.js";

export const myOrdersQueryKey = ["orders", "mine"] as const;

export function getMyOrders(at: PageAt, signal?: AbortSignal): Promise<OrderPage> {
  const params = withPageAt(new URLSearchParams(), at);
  return api<OrderPage>(`/api/orders/mine${params.size ? `?${params}` : ""}`, { signal });
}

/** A page of the customer's own orders, newest first. */
export function useMyOrders(at: PageAt) {
  return useQuery(
    queryOptions({
      queryKey: [...myOrdersQueryKey, at.cursor ?? "", at.before ?? ""],
      queryFn: ({ signal }) => getMyOrders(at, signal),
      // The page on show stays while the next one loads, so the list does not jump.
      placeholderData: keepPreviousData,
    }),
  );
}
