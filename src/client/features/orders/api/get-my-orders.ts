import { queryOptions, useQuery } from "@tanstack/react-query";
import type { Order } from "../../../../shared/orders.js";
import { api } from "../../../lib/api.js";

export const myOrdersQueryKey = ["orders", "mine"] as const;

export function getMyOrders(signal?: AbortSignal): Promise<Order[]> {
  return api<Order[]>("/api/orders/mine", { signal });
}

export function useMyOrders() {
  return useQuery(queryOptions({ queryKey: myOrdersQueryKey, queryFn: ({ signal }) => getMyOrders(signal) }));
}
