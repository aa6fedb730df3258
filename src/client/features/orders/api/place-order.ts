import type { Order, OrderInput } from "../../../../shared/orders.js";
import { api } from "../../../lib/api.js";
import { catalogKeys, orderKeys } from "../../../lib/query-keys.js";
import { useApiMutation } from "../../../lib/use-api-mutation.js";

type PlaceOrderVariables = {
  input: OrderInput;
  /** The same key for every retry of one booking, so a retried request cannot book twice. */
  idempotencyKey: string;
};

function placeOrder({ input, idempotencyKey }: PlaceOrderVariables): Promise<Order> {
  return api<Order>("/api/orders", {
    method: "POST",
    json: input,
    headers: { "idempotency-key": idempotencyKey },
  });
}

export function usePlaceOrder() {
  // The stock changed: every product list and detail, and the customer's orders, are stale.
  return useApiMutation(placeOrder, { invalidates: [catalogKeys.all, orderKeys.all] });
}
