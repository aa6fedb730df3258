import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../lib/api.js";
import { overviewQueryKey } from "./get-overview.js";

export function removeOrder(id: string): Promise<void> {
  return api<void>(`/api/orders/${encodeURIComponent(id)}`, { method: "DELETE" });
}

export function useRemoveOrder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removeOrder,
    // The order is gone and its units are back in stock, in the catalog and in the overview.
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: ["orders"] }),
        queryClient.invalidateQueries({ queryKey: ["products"] }),
        queryClient.invalidateQueries({ queryKey: overviewQueryKey }),
      ]),
  });
}
