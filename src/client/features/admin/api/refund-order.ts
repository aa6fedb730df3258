import type { Order } from "../../../../shared/orders.js";
import { api } from "../../../lib/api.js";
import { adminKeys, catalogKeys, orderKeys } from "../../../lib/query-keys.js";
import { useApiMutation } from "../../../lib/use-api-mutation.js";

function refundOrder(id: string): Promise<Order> {
  return api<Order>(`/api/orders/${encodeURIComponent(id)}/refund`, { method: "POST", json: {} });
}

/** Refunds a paid, not yet shipped order in full: it becomes refunded and its units go back to stock. */
export function useRefundOrder() {
  return useApiMutation(refundOrder, {
    invalidates: [orderKeys.all, catalogKeys.all, adminKeys.overview(), adminKeys.sales()],
  });
}
