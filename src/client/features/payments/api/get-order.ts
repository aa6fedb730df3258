import { queryOptions, useQuery } from "@tanstack/react-query";
import type { Order } from "../../../../shared/orders.js";
import { fetcherOf } from "../../../lib/api.js";
import { orderKeys } from "../../../lib/query-keys.js";

export function useOrder(id: string) {
  return useQuery(
    queryOptions({
      queryKey: orderKeys.detail(id),
      queryFn: fetcherOf<Order>(`/api/orders/${encodeURIComponent(id)}`),
      retry: false,
    }),
  );
}
