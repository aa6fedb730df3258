import { useLocation, useSearchParams } from "react-router";
import { orderMessages } from "../../shared/messages/orders.js";
import { problemMessage } from "../lib/form-errors.js";
import { useResendVerification } from "../lib/verify-email.js";
import { PendingButton } from "./pending-button.js";

const text = orderMessages.verify;
/** better-auth's reasons, in the `error` parameter of a verification link that did not verify. */
const LINK_ERRORS = new Set(["INVALID_TOKEN", "TOKEN_EXPIRED", "USER_NOT_FOUND"]);

/**
 * What an unverified signed-in customer must do before booking (docs/product.md): open the link
 * mailed at sign-up, which brings them back to this page, or ask for a new one here.
 */
export function VerifyEmailNotice({ email }: { email: string }) {
  const location = useLocation();
  const [params] = useSearchParams();
  const resend = useResendVerification();
  const linkFailed = LINK_ERRORS.has(params.get("error") ?? "");
  // Back to this very page, without the failed link's reason.
  const back = new URLSearchParams(params);
  back.delete("error");
  const callbackURL = `${location.pathname}${back.size ? `?${back}` : ""}`;
  return (
    <section aria-labelledby="verify-email-title" className="alert alert-warning alert-soft items-start">
      <div className="flex flex-col gap-3">
        <h2 id="verify-email-title" className="text-lg font-semibold">
          {text.title}
        </h2>
        {linkFailed ? <p>{text.linkFailed}</p> : null}
        <p>{text.text(email)}</p>
        <div>
          <PendingButton
            pending={resend.isPending}
            spinner="xs"
            className="btn btn-sm btn-primary"
            onClick={() => resend.mutate(callbackURL)}
          >
            {text.resend}
          </PendingButton>
        </div>
        <p role="status" aria-live="polite">
          {resend.isSuccess ? text.sent(email) : ""}
        </p>
        {resend.isError ? <p role="alert">{problemMessage(resend.error)}</p> : null}
      </div>
    </section>
  );
}
