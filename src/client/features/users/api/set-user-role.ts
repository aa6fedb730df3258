import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { RoleInput, User } from "../../../../shared/users.js";
import { api } from "../../../lib/api.js";
import { sessionQueryKey, useSession } from "../../../lib/auth.js";
import { userKeys } from "./keys.js";

type SetUserRoleInput = { id: string } & RoleInput;

function setUserRole({ id, role }: SetUserRoleInput): Promise<User> {
  return api<User>(`/api/users/${encodeURIComponent(id)}/role`, { method: "PUT", json: { role } });
}

export function useSetUserRole() {
  const queryClient = useQueryClient();
  const { user } = useSession();
  return useMutation({
    mutationFn: setUserRole,
    onSuccess: (_changed, { id }) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: userKeys.all }),
        // An admin who steps down loses the admin menu at once.
        id === user?.id ? queryClient.invalidateQueries({ queryKey: sessionQueryKey }) : undefined,
      ]),
  });
}
