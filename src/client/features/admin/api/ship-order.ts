import type { Order, ShipOrderInput } from "../../../../shared/orders.js";
import { api } from "../../../lib/api.js";
import { adminKeys, orderKeys } from "../../../lib/query-keys.js";
import { useApiMutation } from "../../../lib/use-api-mutation.js";

type ShipOrderVariables = {
  id: string;
  /** The carrier and tracking number, each left out when the admin gave none. */
  input: ShipOrderInput;
};

function shipOrder({ id, input }: ShipOrderVariables): Promise<Order> {
  return api<Order>(`/api/orders/${encodeURIComponent(id)}/ship`, { method: "POST", json: input });
}

export function useShipOrder() {
  return useApiMutation(shipOrder, { invalidates: [orderKeys.all, adminKeys.overview(), adminKeys.sales()] });
}
