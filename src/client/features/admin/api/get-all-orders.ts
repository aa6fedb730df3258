import { queryOptions, useQuery } from "@tanstack/react-query";
import type { Order } from "../../../../shared/orders.js";
import { api } from "../../../lib/api.js";

/** Under "orders", beside the customer's own list, so invalidating ["orders"] refreshes both. */
export const allOrdersQueryKey = ["orders", "all"] as const;

export function getAllOrders(signal?: AbortSignal): Promise<Order[]> {
  return api<Order[]>("/api/orders", { signal });
}

export function allOrdersQueryOptions() {
  return queryOptions({ queryKey: allOrdersQueryKey, queryFn: ({ signal }) => getAllOrders(signal) });
}

/** Every order in the shop, newest first (admin only: a customer gets a 403). */
export function useAllOrders() {
  return useQuery(allOrdersQueryOptions());
}
