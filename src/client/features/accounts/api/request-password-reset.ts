import { useMutation } from "@tanstack/react-query";
import type { z } from "zod";
import type { resetRequestSchema } from "../../../../shared/accounts.js";
import { api } from "../../../lib/api.js";
import { paths } from "../../../lib/paths.js";

type ResetRequestValues = z.output<typeof resetRequestSchema>;

/** Asks for a reset mail; the answer is the same whether or not the email has an account. */
function requestPasswordReset(values: ResetRequestValues): Promise<unknown> {
  return api<unknown>("/api/auth/request-password-reset", {
    method: "POST",
    json: { email: values.email, redirectTo: paths.passwordReset },
  });
}

export function useRequestPasswordReset() {
  return useMutation({ mutationFn: requestPasswordReset });
}
