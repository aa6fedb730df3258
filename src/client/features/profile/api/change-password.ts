import { api } from "../../../lib/api.js";
import { useApiMutation } from "../../../lib/use-api-mutation.js";
import { profileKeys } from "./keys.js";

type ChangePasswordInput = { currentPassword: string; newPassword: string };

function changePassword(input: ChangePasswordInput): Promise<unknown> {
  // Always ends the other sessions (docs/product.md, Accounts); this one goes on, renewed.
  return api<unknown>("/api/auth/change-password", {
    method: "POST",
    json: { ...input, revokeOtherSessions: true },
  });
}

/** Changes the signed-in user's password; the list of their sessions is stale after it. */
export function useChangePassword(userId: string) {
  return useApiMutation(changePassword, { invalidates: [profileKeys.sessions(userId)] });
}
