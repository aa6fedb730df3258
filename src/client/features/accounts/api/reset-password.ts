import { api } from "../../../lib/api.js";
import { sessionQueryKey } from "../../../lib/auth.js";
import { useApiMutation } from "../../../lib/use-api-mutation.js";

type ResetPasswordInput = { token: string; newPassword: string };

function resetPassword(input: ResetPasswordInput): Promise<unknown> {
  return api<unknown>("/api/auth/reset-password", { method: "POST", json: input });
}

/** Sets a new password with the mailed token; the server ends every session of that user. */
export function useResetPassword() {
  return useApiMutation(resetPassword, {
    // "all": the session query refetches even when no page is showing it.
    onSuccess: (_answer, _input, queryClient) =>
      queryClient.invalidateQueries({ queryKey: sessionQueryKey, refetchType: "all" }),
  });
}
