import { api } from "../../../lib/api.js";
import { adminKeys } from "../../../lib/query-keys.js";
import { useApiMutation } from "../../../lib/use-api-mutation.js";
import { userKeys } from "./keys.js";

function deleteUser(id: string): Promise<void> {
  return api<void>(`/api/users/${encodeURIComponent(id)}`, { method: "DELETE" });
}

export function useDeleteUser() {
  // The admin overview counts users.
  return useApiMutation(deleteUser, { invalidates: [userKeys.all, adminKeys.overview()] });
}
