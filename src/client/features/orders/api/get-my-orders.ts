import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import type { OrderPage } from "../../../../shared/orders.js";
import { api } from "../../../lib/api.js";

export const myOrdersQueryKey = ["orders", "mine"] as const;

export function getMyOrders(cursor?: string, signal?: AbortSignal): Promise<OrderPage> {
  const query = cursor ? `?${new URLSearchParams({ cursor })}` : "";
  return api<OrderPage>(`/api/orders/mine${query}`, { signal });
}

/** A page of the customer's own orders, newest first. */
export function useMyOrders(cursor?: string) {
  return useQuery(
    queryOptions({
      queryKey: [...myOrdersQueryKey, cursor ?? ""],
      queryFn: ({ signal }) => getMyOrders(cursor, signal),
      placeholderData: keepPreviousData,
    }),
  );
}
