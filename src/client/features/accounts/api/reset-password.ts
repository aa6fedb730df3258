import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../lib/api.js";
import { sessionQueryKey } from "../../../lib/auth.js";

type ResetPasswordInput = { token: string; newPassword: string };

function resetPassword(input: ResetPasswordInput): Promise<unknown> {
  return api<unknown>("/api/auth/reset-password", { method: "POST", json: input });
}

/** Sets a new password with the mailed token; the server ends every session of that user. */
export function useResetPassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: resetPassword,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: sessionQueryKey, refetchType: "all" }),
  });
}
