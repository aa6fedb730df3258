import { useEffect, useId, useState } from "react";
import { toast } from "sonner";
import { accountMessages } from "../../../../shared/messages/accounts.js";
import { PendingStatus } from "../../../components/pending-status.js";
import { ScriptButton } from "../../../components/script-button.js";
import { problemMessage } from "../../../lib/form-errors.js";
import { loginPath } from "../../../lib/paths.js";
import { useGoogleSignIn } from "../api/google-sign-in.js";

function GoogleLogo() {
  return (
    <svg viewBox="0 0 48 48" aria-hidden="true" className="h-5 w-5">
      <path
        fill="#FFC107"
        d="M43.6 20.5H42V20H24v8h11.3C33.7 32.7 29.2 36 24 36c-6.6 0-12-5.4-12-12s5.4-12 12-12c3.1 0 5.8 1.2 7.9 3.1l5.7-5.7C34 6.1 29.3 4 24 4 12.9 4 4 12.9 4 24s8.9 20 20 20 20-8.9 20-20c0-1.3-.1-2.4-.4-3.5z"
      />
      <path
        fill="#FF3D00"
        d="M6.3 14.7l6.6 4.8C14.7 15.1 19 12 24 12c3.1 0 5.8 1.2 7.9 3.1l5.7-5.7C34 6.1 29.3 4 24 4 16.3 4 9.7 8.3 6.3 14.7z"
      />
      <path
        fill="#4CAF50"
        d="M24 44c5.2 0 9.9-2 13.4-5.2l-6.2-5.2C29.2 35.1 26.7 36 24 36c-5.2 0-9.6-3.3-11.3-7.9l-6.5 5C9.5 39.6 16.2 44 24 44z"
      />
      <path
        fill="#1976D2"
        d="M43.6 20.5H42V20H24v8h11.3c-.8 2.2-2.2 4.2-4.1 5.6l6.2 5.2C37 39.2 44 34 44 24c0-1.3-.1-2.4-.4-3.5z"
      />
    </svg>
  );
}

type Props = {
  /** The path to come back to once Google has signed the user in. */
  redirectTo: string;
};

/**
 * Sign In with Google. Stays visible when the shop has no Google sign-in configured, and then says
 * so under the button and in a toast.
 */
export function GoogleButton({ redirectTo }: Props) {
  const google = useGoogleSignIn();
  const [problem, setProblem] = useState<string | null>(null);
  const problemId = useId();
  const { reset } = google;

  // Back from Google's page through the browser's cache: the button must work again.
  useEffect(() => {
    const onPageShow = (event: PageTransitionEvent) => {
      if (event.persisted) reset();
    };
    window.addEventListener("pageshow", onPageShow);
    return () => window.removeEventListener("pageshow", onPageShow);
  }, [reset]);

  const onClick = () => {
    setProblem(null);
    google.mutate(
      { callbackURL: redirectTo, errorCallbackURL: loginPath(redirectTo) },
      {
        onError: (error) => {
          const message = problemMessage(error);
          setProblem(message);
          toast.error(message);
        },
      },
    );
  };

  // Success means the browser is on its way to Google: keep the spinner until it has left.
  const busy = google.isPending || google.isSuccess;
  return (
    <div className="flex flex-col gap-2">
      <ScriptButton
        type="button"
        className="btn btn-outline w-full gap-3"
        onClick={onClick}
        disabled={busy}
        aria-describedby={problem ? problemId : undefined}
      >
        {busy ? <span className="loading loading-spinner loading-sm" aria-hidden="true" /> : <GoogleLogo />}
        {accountMessages.form.google}
      </ScriptButton>
      <PendingStatus pending={busy} />
      {problem ? (
        <p id={problemId} role="alert" className="text-sm text-error">
          {problem}
        </p>
      ) : null}
    </div>
  );
}
