import { queryOptions, useQuery } from "@tanstack/react-query";
import type { PaymentIntent } from "../../../../shared/payments.js";
import { api } from "../../../lib/api.js";
import { orderKeys } from "../../../lib/query-keys.js";

function createPaymentIntent(orderId: string, signal?: AbortSignal): Promise<PaymentIntent> {
  return api<PaymentIntent>(`/api/orders/${encodeURIComponent(orderId)}/payment-intent`, {
    method: "POST",
    json: {},
    signal,
  });
}

/** The order's payment intent; the server reuses an open one, so asking again is harmless. */
export function usePaymentIntent(orderId: string, enabled: boolean) {
  return useQuery(
    queryOptions({
      queryKey: orderKeys.paymentIntent(orderId),
      queryFn: ({ signal }) => createPaymentIntent(orderId, signal),
      enabled,
      staleTime: Number.POSITIVE_INFINITY,
      retry: false,
    }),
  );
}
