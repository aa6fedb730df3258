import { type QueryKey, useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "./api.js";
import { catalogKeys, orderKeys } from "./query-keys.js";

function removeOrder(id: string): Promise<void> {
  return api<void>(`/api/orders/${encodeURIComponent(id)}`, { method: "DELETE" });
}

/**
 * The order is gone and its units are back in stock. `alsoStale` names the caller's own views of
 * orders that live outside orderKeys.all (the admin overview counts them).
 */
export function useRemoveOrder(alsoStale: readonly QueryKey[] = []) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removeOrder,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: orderKeys.all }),
        queryClient.invalidateQueries({ queryKey: catalogKeys.all }),
        ...alsoStale.map((queryKey) => queryClient.invalidateQueries({ queryKey })),
      ]),
  });
}
