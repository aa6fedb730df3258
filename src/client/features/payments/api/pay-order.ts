import type { Order } from "../../../../shared/orders.js";
import { api } from "../../../lib/api.js";
import { orderKeys } from "../../../lib/query-keys.js";
import { useApiMutation } from "../../../lib/use-api-mutation.js";

function payOrder({ orderId, transactionId }: { orderId: string; transactionId: string }): Promise<Order> {
  return api<Order>(`/api/orders/${encodeURIComponent(orderId)}/pay`, {
    method: "POST",
    json: { transactionId },
  });
}

/** Asks the server to check the payment with the provider and mark the order paid. */
export function usePayOrder() {
  return useApiMutation(payOrder, {
    onSuccess: (order, _variables, queryClient) =>
      queryClient.setQueryData(orderKeys.detail(order.id), order),
    invalidates: [orderKeys.mine()],
  });
}
