import type { RoleInput, User } from "../../../../shared/users.js";
import { api } from "../../../lib/api.js";
import { sessionQueryKey, useSession } from "../../../lib/auth.js";
import { useApiMutation } from "../../../lib/use-api-mutation.js";
import { userKeys } from "./keys.js";

type SetUserRoleInput = { id: string } & RoleInput;

function setUserRole({ id, role }: SetUserRoleInput): Promise<User> {
  return api<User>(`/api/users/${encodeURIComponent(id)}/role`, { method: "PUT", json: { role } });
}

export function useSetUserRole() {
  const { user } = useSession();
  return useApiMutation(setUserRole, {
    // An admin who steps down loses the admin menu at once.
    invalidates: ({ id }) => (id === user?.id ? [userKeys.all, sessionQueryKey] : [userKeys.all]),
  });
}
