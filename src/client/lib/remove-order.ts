import { type QueryKey, useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "./api.js";

export function removeOrder(id: string): Promise<void> {
  return api<void>(`/api/orders/${encodeURIComponent(id)}`, { method: "DELETE" });
}

/**
 * The order is gone and its units are back in stock. `alsoStale` names the caller's own views of
 * orders that live outside ["orders"] (the admin overview counts them).
 */
export function useRemoveOrder(alsoStale: readonly QueryKey[] = []) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removeOrder,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: ["orders"] }),
        queryClient.invalidateQueries({ queryKey: ["products"] }),
        ...alsoStale.map((queryKey) => queryClient.invalidateQueries({ queryKey })),
      ]),
  });
}
