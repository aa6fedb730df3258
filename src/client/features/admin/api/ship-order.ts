import type { Order } from "../../../../shared/orders.js";
import { api } from "../../../lib/api.js";
import { adminKeys, orderKeys } from "../../../lib/query-keys.js";
import { useApiMutation } from "../../../lib/use-api-mutation.js";

function shipOrder(id: string): Promise<Order> {
  return api<Order>(`/api/orders/${encodeURIComponent(id)}/ship`, { method: "POST" });
}

export function useShipOrder() {
  return useApiMutation(shipOrder, { invalidates: [orderKeys.all, adminKeys.overview()] });
}
