import { Link } from "react-router";
import { emailChangeMessages as m } from "../../../../shared/messages/email-change.js";
import { MailedLinkAction, useLinkToken } from "../../../components/mailed-link-action.js";
import { MailedLinkPage } from "../../../components/mailed-link-page.js";
import { paths } from "../../../lib/paths.js";
import { useConfirmEmailChange } from "../api/email-change.js";

const text = m.confirm;

/**
 * /confirm-email?token=…: the link mailed to a new address (issue 34, item 2). It asks before it
 * changes anything, so a mail scanner that follows the link does nothing; no sign-in needed (the
 * link proves the inbox). A refusal (used, expired, taken) is the server's words.
 */
export function ConfirmEmailPage() {
  const confirm = useConfirmEmailChange();
  // Without its token the page has nothing to ask: it says where the link is instead.
  const asks = useLinkToken() !== "" || confirm.isSuccess;
  return (
    <MailedLinkPage title={text.title}>
      {asks ? (
        <MailedLinkAction
          action={confirm}
          lead={text.lead}
          label={text.submit}
          done={(changed) => (
            <>
              <p role="status" className="alert alert-success mt-6">
                {text.done(changed.email)}
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
          )}
        />
      ) : (
        <p role="alert" className="alert alert-error mt-6">
          {text.noToken}
        </p>
      )}
    </MailedLinkPage>
  );
}
