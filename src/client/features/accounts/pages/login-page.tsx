import { useQueryClient } from "@tanstack/react-query";
import { lazy, Suspense, useState } from "react";
import { Link, useNavigate, useSearchParams } from "react-router";
import { accountMessages } from "../../../../shared/messages/accounts.js";
import { EmailField, PasswordField } from "../../../components/account-fields.js";
import { Form } from "../../../components/form.js";
import { FormAlert } from "../../../components/form-alert.js";
import { ScriptButton } from "../../../components/script-button.js";
import { Spinner } from "../../../components/spinner.js";
import { SubmitButton } from "../../../components/submit-button.js";
import { showServerError } from "../../../lib/form-errors.js";
import { paths } from "../../../lib/paths.js";
import { useSchemaForm } from "../../../lib/use-schema-form.js";
import { useSignIn } from "../api/sign-in.js";
import { AuthCard } from "../components/auth-card.js";
import { OtherWaysIn } from "../components/other-ways-in.js";
import { safeRedirect, withRedirect } from "../utils/redirect.js";

/**
 * The form's schema, and zod with it, load apart from the page: /login is often the first page a
 * visitor opens, and its form is usable sooner without them (docs/decisions/first-page-main-thread.md).
 * They start loading when the form gets the focus; its first check waits for them.
 */
const loadSchema = () => import("../../../../shared/accounts.js").then((m) => m.signInSchema);

/** The second step (a code or a passkey) loads only when a sign-in asks for it. */
const SecondStep = lazy(() =>
  import("../components/second-step.js").then((m) => ({ default: m.SecondStep })),
);

const text = accountMessages.pages;
const form = accountMessages.form;

/** The message for a Google sign-in that came back with `error=CODE`. */
function googleError(code: string | null): string | null {
  if (!code) return null;
  return code === "account_not_linked" ? accountMessages.googleNotLinked : accountMessages.googleFailed;
}

/**
 * "Sign in with a passkey": drawn with the page (prerendered, and disabled until the page's code
 * runs); the passkey's code loads on the press.
 */
function PasskeyButton({ onSignedIn }: { onSignedIn(): void }) {
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | undefined>();
  const [pending, setPending] = useState(false);
  const signIn = () => {
    setPending(true);
    setError(undefined);
    import("../api/passkey-sign-in.js")
      .then((module) => module.signInWithPasskey(queryClient))
      .then(onSignedIn, (cause: unknown) => setError(cause instanceof Error ? cause.message : String(cause)))
      .finally(() => setPending(false));
  };
  return (
    <div className="flex flex-col gap-2">
      {error ? <FormAlert>{error}</FormAlert> : null}
      <ScriptButton className="btn btn-outline w-full" disabled={pending} onClick={signIn}>
        {form.signInWithPasskey}
      </ScriptButton>
    </div>
  );
}

/** /login: email and password or Google, then back to the page the visitor came from. */
export function LoginPage() {
  const [params] = useSearchParams();
  const redirect = params.get("redirect");
  const target = safeRedirect(redirect);
  const returnedError = googleError(params.get("error"));
  const navigate = useNavigate();
  const signIn = useSignIn();
  // No default values: react-hook-form then takes the fields' values from the page as it takes them
  // over, so what was typed into the prerendered form before the code ran is kept (and sent).
  const { register, handleSubmit, setError, formState } = useSchemaForm(loadSchema);
  const { errors } = formState;
  const [secondStep, setSecondStep] = useState(false);
  const goOn = () => void navigate(target, { replace: true });

  const onSubmit = handleSubmit((values) =>
    signIn.mutate(values, {
      onSuccess: (answer) => {
        if ((answer as { twoFactorRedirect?: unknown } | null)?.twoFactorRedirect === true)
          setSecondStep(true);
        else goOn();
      },
      onError: (error) => showServerError(error, ["email", "password"], setError),
    }),
  );

  if (secondStep)
    return (
      <AuthCard title={text.login} lead={text.loginLead}>
        <Suspense fallback={<Spinner />}>
          <SecondStep onSignedIn={goOn} />
        </Suspense>
      </AuthCard>
    );

  return (
    <AuthCard title={text.login} lead={text.loginLead}>
      {returnedError ? <FormAlert>{returnedError}</FormAlert> : null}
      <Form
        onSubmit={onSubmit}
        onFocusCapture={() => void loadSchema()}
        serverError={errors.root?.server}
        actions={
          <SubmitButton pending={signIn.isPending} early>
            {form.signIn}
          </SubmitButton>
        }
      >
        <EmailField label={form.email} error={errors.email?.message} {...register("email")} />
        <div className="flex flex-col gap-2">
          <PasswordField label={form.password} error={errors.password?.message} {...register("password")} />
          <Link to={paths.passwordReset} className="link link-primary self-end text-sm">
            {text.forgotPassword}
          </Link>
        </div>
      </Form>
      <PasskeyButton onSignedIn={goOn} />
      <OtherWaysIn
        redirectTo={target}
        question={text.noAccount}
        linkLabel={text.createAccount}
        linkTo={withRedirect(paths.registration, redirect)}
      />
    </AuthCard>
  );
}
