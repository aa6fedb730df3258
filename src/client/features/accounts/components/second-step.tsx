import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { secondFactorMessages as m } from "../../../../shared/messages/second-factor.js";
import { FactorCodeFields } from "../../../components/factor-code-fields.js";
import { Form } from "../../../components/form.js";
import { SubmitButton } from "../../../components/submit-button.js";
import { ApiError } from "../../../lib/api.js";
import {
  type CodeKind,
  PasskeyCancelled,
  passkeysSupported,
  provePasskey,
  verifyCode,
} from "../../../lib/second-factor.js";
import { startSession } from "../api/start-session.js";

type Props = {
  /** Once signed in: go on to the page the visitor came from. */
  onSignedIn(): void;
};

/**
 * The sign-in's second step, after a correct password of an account with a second factor: a code
 * from the app, a backup code, or a passkey. Loaded only when a sign-in asks for it.
 */
export function SecondStep({ onSignedIn }: Props) {
  const queryClient = useQueryClient();
  const [kind, setKind] = useState<CodeKind>("app");
  const [code, setCode] = useState("");
  const [error, setError] = useState<string | undefined>();
  const [pending, setPending] = useState(false);

  const run = async (prove: () => Promise<unknown>) => {
    setPending(true);
    setError(undefined);
    try {
      await prove();
      await startSession(queryClient);
      onSignedIn();
    } catch (cause) {
      if (cause instanceof PasskeyCancelled) setError(cause.message);
      else setError(cause instanceof ApiError ? (cause.detail ?? cause.message) : m.passkeySignInFailed);
    } finally {
      setPending(false);
    }
  };
  const submit = () => {
    if (!code.trim()) setError(m.codeRequired);
    else void run(() => verifyCode(kind, code));
  };

  return (
    <section aria-labelledby="second-step-heading" className="flex flex-col gap-4">
      <h2 id="second-step-heading" className="text-xl font-bold">
        {m.signInHeading}
      </h2>
      <Form
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
        serverError={error ? { message: error } : undefined}
        actions={<SubmitButton pending={pending}>{m.verify}</SubmitButton>}
      >
        <FactorCodeFields
          kind={kind}
          onKindChange={setKind}
          code={code}
          onCodeChange={setCode}
          onEnter={submit}
        />
      </Form>
      {passkeysSupported() ? (
        <button
          type="button"
          className="btn btn-outline"
          disabled={pending}
          onClick={() => void run(provePasskey)}
        >
          {m.usePasskey}
        </button>
      ) : null}
    </section>
  );
}
