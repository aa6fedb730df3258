import { useMutation } from "@tanstack/react-query";
import { api } from "./api.js";

/**
 * Asks the shop to mail the signed-in customer's verification link again; the link brings them
 * back to `callbackURL`, a path of the shop's (the page they are on). The server caps the mails
 * per address an hour and answers 429 over it.
 */
function resendVerification(callbackURL: string): Promise<unknown> {
  return api<unknown>("/api/auth/send-verification-email", { method: "POST", json: { callbackURL } });
}

export function useResendVerification() {
  return useMutation({ mutationFn: resendVerification });
}
