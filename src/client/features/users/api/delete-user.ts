import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../lib/api.js";
import { adminKeys } from "../../../lib/query-keys.js";
import { userKeys } from "./keys.js";

function deleteUser(id: string): Promise<void> {
  return api<void>(`/api/users/${encodeURIComponent(id)}`, { method: "DELETE" });
}

export function useDeleteUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteUser,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: userKeys.all }),
        // The admin overview counts users.
        queryClient.invalidateQueries({ queryKey: adminKeys.overview() }),
      ]),
  });
}
