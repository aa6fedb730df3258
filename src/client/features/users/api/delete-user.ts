import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../lib/api.js";
import { usersQueryKey } from "./get-users.js";

export function deleteUser(id: string): Promise<void> {
  return api<void>(`/api/users/${encodeURIComponent(id)}`, { method: "DELETE" });
}

export function useDeleteUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteUser,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: usersQueryKey }),
        // The admin overview counts users.
        queryClient.invalidateQueries({ queryKey: ["admin"] }),
      ]),
  });
}
