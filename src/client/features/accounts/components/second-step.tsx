import { useQueryClient } from "@tanstack/react-query";
import { secondFactorMessages as m } from "../../../../shared/messages/second-factor.js";
import { FactorProofFields } from "../../../components/factor-code-fields.js";
import { Form } from "../../../components/form.js";
import { SubmitButton } from "../../../components/submit-button.js";
import { useFactorProof } from "../../../lib/use-factor-proof.js";
import { startSession } from "../api/start-session.js";

/**
 * The sign-in's second step, after a correct password of an account with a second factor: a code
 * from the app, a backup code, or a passkey. Loaded only when a sign-in asks for it.
 */
export function SecondStep({ onSignedIn }: { onSignedIn(): void }) {
  const queryClient = useQueryClient();
  const proof = useFactorProof(async () => {
    await startSession(queryClient);
    onSignedIn();
  }, m.passkeySignInFailed);

  return (
    <section aria-labelledby="second-step-heading" className="flex flex-col gap-4">
      <h2 id="second-step-heading" className="text-xl font-bold">
        {m.signInHeading}
      </h2>
      <Form
        onSubmit={(event) => {
          event.preventDefault();
          proof.submitCode();
        }}
        serverError={proof.error ? { message: proof.error } : undefined}
        actions={<SubmitButton pending={proof.pending}>{m.verify}</SubmitButton>}
      >
        <FactorProofFields proof={proof} />
      </Form>
    </section>
  );
}
