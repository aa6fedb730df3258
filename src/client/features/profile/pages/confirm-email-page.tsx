import { Link, useSearchParams } from "react-router";
import { emailChangeMessages as m } from "../../../../shared/messages/email-change.js";
import { MailedLinkAsk, MailedLinkPage } from "../../../components/mailed-link-page.js";
import { problemMessage } from "../../../lib/form-errors.js";
import { paths } from "../../../lib/paths.js";
import { useConfirmEmailChange } from "../api/email-change.js";

const text = m.confirm;

/**
 * /confirm-email?token=…: the link mailed to a new address (issue 34, item 2). It asks before it
 * changes anything, so a mail scanner that follows the link does nothing; no sign-in needed (the
 * link proves the inbox). A refusal (used, expired, taken) is the server's words.
 */
export function ConfirmEmailPage() {
  const [params] = useSearchParams();
  const confirm = useConfirmEmailChange();
  const token = params.get("token") ?? "";
  return (
    <MailedLinkPage title={text.title}>
      {confirm.isSuccess ? (
        <>
          <p role="status" className="alert alert-success mt-6">
            {text.done(confirm.data.email)}
          </p>
          <div className="mt-8 flex flex-wrap gap-4">
            <Link className="btn btn-primary" to={paths.login}>
              {text.signIn}
            </Link>
            <Link className="btn btn-ghost" to={paths.dashboard.myProfile}>
              {text.toProfile}
            </Link>
          </div>
        </>
      ) : !token ? (
        <p role="alert" className="alert alert-error mt-6">
          {text.noToken}
        </p>
      ) : (
        <MailedLinkAsk
          lead={text.lead}
          error={confirm.isError ? problemMessage(confirm.error) : undefined}
          disabled={confirm.isPending}
          label={text.submit}
          onConfirm={() => confirm.mutate(token)}
        />
      )}
    </MailedLinkPage>
  );
}
