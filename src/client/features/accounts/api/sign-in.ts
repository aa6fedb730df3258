import type { z } from "zod";
import type { signInSchema } from "../../../../shared/accounts.js";
import { api } from "../../../lib/api.js";
import { useApiMutation } from "../../../lib/use-api-mutation.js";
import { startSession } from "./start-session.js";

type SignInValues = z.output<typeof signInSchema>;

function signIn(values: SignInValues): Promise<unknown> {
  return api<unknown>("/api/auth/sign-in/email", { method: "POST", json: values });
}

/** Signs in with email and password; settles once the session query holds the new user. */
export function useSignIn() {
  return useApiMutation(signIn, { onSuccess: (_answer, _values, queryClient) => startSession(queryClient) });
}
