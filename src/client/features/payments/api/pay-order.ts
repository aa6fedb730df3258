import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { Order } from "../../../../shared/orders.js";
import { api } from "../../../lib/api.js";
import { orderKeys } from "../../../lib/query-keys.js";

function payOrder({ orderId, transactionId }: { orderId: string; transactionId: string }): Promise<Order> {
  return api<Order>(`/api/orders/${encodeURIComponent(orderId)}/pay`, {
    method: "POST",
    json: { transactionId },
  });
}

/** Asks the server to check the payment with the provider and mark the order paid. */
export function usePayOrder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: payOrder,
    onSuccess: (order) => {
      queryClient.setQueryData(orderKeys.detail(order.id), order);
      return queryClient.invalidateQueries({ queryKey: orderKeys.mine() });
    },
  });
}
