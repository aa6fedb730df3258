import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { Order } from "../../../../shared/orders.js";
import { api } from "../../../lib/api.js";
import { adminKeys, orderKeys } from "../../../lib/query-keys.js";

function shipOrder(id: string): Promise<Order> {
  return api<Order>(`/api/orders/${encodeURIComponent(id)}/ship`, { method: "POST" });
}

export function useShipOrder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: shipOrder,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: orderKeys.all }),
        queryClient.invalidateQueries({ queryKey: adminKeys.overview() }),
      ]),
  });
}
