import type { QueryClient } from "@tanstack/react-query";
import { secondFactorMessages as m } from "../../../../shared/messages/second-factor.js";
import { ApiError } from "../../../lib/api.js";
import { PasskeyCancelled, passkeysSupported, provePasskey } from "../../../lib/second-factor.js";
import { startSession } from "./start-session.js";

/**
 * The login page's "Sign in with a passkey", loaded on its press: a way in without the password
 * (a passkey is a second factor by itself). Resolves once the session holds the user; rejects with
 * the words to show.
 */
export async function signInWithPasskey(queryClient: QueryClient): Promise<void> {
  if (!passkeysSupported()) throw new Error(m.passkeySignInFailed);
  try {
    await provePasskey();
  } catch (cause) {
    if (cause instanceof PasskeyCancelled) throw cause;
    throw new Error(cause instanceof ApiError && cause.status >= 500 ? cause.message : m.passkeySignInFailed);
  }
  await startSession(queryClient);
}
