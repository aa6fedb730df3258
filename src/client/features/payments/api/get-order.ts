import { queryOptions, useQuery } from "@tanstack/react-query";
import type { Order } from "../../../../shared/orders.js";
import { api } from "../../../lib/api.js";
import { orderKeys } from "../../../lib/query-keys.js";

function getOrder(id: string, signal?: AbortSignal): Promise<Order> {
  return api<Order>(`/api/orders/${encodeURIComponent(id)}`, { signal });
}

export function useOrder(id: string) {
  return useQuery(
    queryOptions({
      queryKey: orderKeys.detail(id),
      queryFn: ({ signal }) => getOrder(id, signal),
      retry: false,
    }),
  );
}
