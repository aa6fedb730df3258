import { useState } from "react";
import { secondFactorMessages as m } from "../../shared/messages/second-factor.js";
import { ApiError } from "./api.js";
import { type CodeKind, PasskeyCancelled, provePasskey, verifyCode } from "./second-factor.js";

/**
 * A second factor being proved, by code or passkey: the sign-in's second step and the step-up
 * dialog share it. `onProved` runs once one is (its failure is shown like the proof's).
 */
export function useFactorProof(onProved: () => Promise<void> | void, failed: string) {
  const [kind, setKind] = useState<CodeKind>("app");
  const [code, setCode] = useState("");
  const [error, setError] = useState<string | undefined>();
  const [pending, setPending] = useState(false);

  const run = async (prove: () => Promise<unknown>) => {
    setPending(true);
    setError(undefined);
    try {
      await prove();
      await onProved();
    } catch (cause) {
      if (cause instanceof PasskeyCancelled) setError(cause.message);
      else setError(cause instanceof ApiError ? (cause.detail ?? cause.message) : failed);
    } finally {
      setPending(false);
    }
  };

  return {
    kind,
    setKind,
    code,
    setCode,
    error,
    setError,
    pending,
    /** Proves the code typed (an app's or a backup code), or says one is needed. */
    submitCode: () => {
      if (!code.trim()) setError(m.codeRequired);
      else void run(() => verifyCode(kind, code));
    },
    /** Proves a passkey. */
    withPasskey: () => void run(provePasskey),
  };
}
