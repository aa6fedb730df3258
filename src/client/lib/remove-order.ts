import type { QueryKey } from "@tanstack/react-query";
import { api } from "./api.js";
import { catalogKeys, orderKeys } from "./query-keys.js";
import { useApiMutation } from "./use-api-mutation.js";

function removeOrder(id: string): Promise<void> {
  return api<void>(`/api/orders/${encodeURIComponent(id)}`, { method: "DELETE" });
}

/**
 * The order is gone and its units are back in stock. `alsoStale` names the caller's own views of
 * orders that live outside orderKeys.all (the admin overview counts them).
 */
export function useRemoveOrder(alsoStale: readonly QueryKey[] = []) {
  return useApiMutation(removeOrder, { invalidates: [orderKeys.all, catalogKeys.all, ...alsoStale] });
}
