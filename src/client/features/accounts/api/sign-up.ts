import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import type { signUpSchema } from "../../../../shared/accounts.js";
import { api } from "../../../lib/api.js";
import { getSessionUser, sessionQueryKey } from "../../../lib/auth.js";
import { startSession } from "./start-session.js";

export type SignUpValues = z.output<typeof signUpSchema> & {
  /** The page the mailed verification link brings the new customer back to (a path of the shop's). */
  callbackURL?: string;
};

/** Answers 200 {ok: true} whether or not the email already had an account. */
function signUp(values: SignUpValues): Promise<unknown> {
  return api<unknown>("/api/auth/sign-up/email", { method: "POST", json: values });
}

export type SignUpResult = { signedIn: boolean };

/**
 * Sends the sign-up, then reloads the session: a new email is signed in at once, a known one is not
 * (its owner gets a mail instead), and only the session tells which it was.
 */
export function useSignUp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (values: SignUpValues): Promise<SignUpResult> => {
      await signUp(values);
      await startSession(queryClient);
      const user = await queryClient.ensureQueryData({ queryKey: sessionQueryKey, queryFn: getSessionUser });
      return { signedIn: user !== null };
    },
  });
}
