import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import type { signUpSchema } from "../../../../shared/accounts.js";
import { api } from "../../../lib/api.js";
import { startSession } from "./start-session.js";

export type SignUpValues = z.output<typeof signUpSchema>;

export function signUp(values: SignUpValues): Promise<unknown> {
  return api<unknown>("/api/auth/sign-up/email", { method: "POST", json: values });
}

/** Creates the account, which also signs in; settles once the session query holds the new user. */
export function useSignUp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: signUp,
    onSuccess: () => startSession(queryClient),
  });
}
