import { useMutation } from "@tanstack/react-query";
import { api } from "../../../lib/api.js";

type GoogleSignInInput = {
  /** Where Google sends the user back to once signed in. */
  callbackURL: string;
  /** Where the user lands when the sign-in fails; the server appends `error=CODE`. */
  errorCallbackURL: string;
};

type SocialSignInAnswer = { url: string; redirect: boolean };

function startGoogleSignIn(input: GoogleSignInInput): Promise<SocialSignInAnswer> {
  return api<SocialSignInAnswer>("/api/auth/sign-in/social", {
    method: "POST",
    json: { provider: "google", ...input },
  });
}

/** Asks the server for Google's sign-in address, then leaves for it. */
export function useGoogleSignIn() {
  return useMutation({
    mutationFn: startGoogleSignIn,
    onSuccess: ({ url }) => {
      // Only ever leave for a web address, never a javascript: or data: one.
      const target = new URL(url, window.location.origin);
      if (target.protocol === "https:" || target.protocol === "http:") window.location.assign(target.href);
    },
  });
}
