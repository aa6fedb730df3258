import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { secondFactorMessages as m } from "../../../../shared/messages/second-factor.js";
import { FormAlert } from "../../../components/form-alert.js";
import { PendingButton } from "../../../components/pending-button.js";
import { ApiError } from "../../../lib/api.js";
import { PasskeyCancelled, passkeysSupported, provePasskey } from "../../../lib/second-factor.js";
import { startSession } from "../api/start-session.js";

/** "Sign in with a passkey", on the login page: a way in without the password (and a second factor by itself). */
export function PasskeySignIn({ onSignedIn }: { onSignedIn(): void }) {
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | undefined>();
  const [pending, setPending] = useState(false);
  if (!passkeysSupported()) return null;
  const signIn = async () => {
    setPending(true);
    setError(undefined);
    try {
      await provePasskey();
      await startSession(queryClient);
      onSignedIn();
    } catch (cause) {
      if (cause instanceof PasskeyCancelled) setError(cause.message);
      else
        setError(
          cause instanceof ApiError && cause.status < 500 ? m.passkeySignInFailed : (cause as Error).message,
        );
    } finally {
      setPending(false);
    }
  };
  return (
    <div className="flex flex-col gap-2">
      {error ? <FormAlert>{error}</FormAlert> : null}
      <PendingButton className="btn btn-outline w-full" pending={pending} onClick={() => void signIn()}>
        {m.signInWithPasskey}
      </PendingButton>
    </div>
  );
}
