import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { Order, OrderInput } from "../../../../shared/orders.js";
import { api } from "../../../lib/api.js";
import { catalogKeys, orderKeys } from "../../../lib/query-keys.js";

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
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: placeOrder,
    // The stock changed: every product list and detail, and the customer's orders, are stale.
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: catalogKeys.all }),
        queryClient.invalidateQueries({ queryKey: orderKeys.all }),
      ]),
  });
}
