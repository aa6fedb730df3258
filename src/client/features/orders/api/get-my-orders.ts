import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import type { OrderPage } from "../../../../shared/orders.js";
import { api } from "../../../lib/api.js";
import { orderKeys } from "../../../lib/query-keys.js";
import { type PageAt, withPageAt } from "../../../lib/use-page-position.js";

function getMyOrders(at: PageAt, signal?: AbortSignal): Promise<OrderPage> {
  const params = withPageAt(new URLSearchParams(), at);
  return api<OrderPage>(`/api/orders/mine${params.size ? `?${params}` : ""}`, { signal });
}

/** A page of the customer's own orders, newest first. */
export function useMyOrders(at: PageAt) {
  return useQuery(
    queryOptions({
      queryKey: orderKeys.minePage(at),
      queryFn: ({ signal }) => getMyOrders(at, signal),
      // The page on show stays while the next one loads, so the list does not jump.
      placeholderData: keepPreviousData,
    }),
  );
}
