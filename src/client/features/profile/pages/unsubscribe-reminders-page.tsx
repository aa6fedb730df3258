import { Link } from "react-router";
import { mailPreferenceMessages } from "../../../../shared/messages/mail-preferences.js";
import { MailedLinkAction } from "../../../components/mailed-link-action.js";
import { MailedLinkPage } from "../../../components/mailed-link-page.js";
import { paths } from "../../../lib/paths.js";
import { useUnsubscribeReminders } from "../api/mail-preferences.js";

const m = mailPreferenceMessages.unsubscribe;

/**
 * /unsubscribe?token=…: where an optional mail's footer link, or its List-Unsubscribe address opened
 * in a browser, leads. It asks before it turns reminder mails off (a link scanner that follows links
 * turns nothing off); no sign-in needed, the token names the account.
 */
export function UnsubscribeRemindersPage() {
  const unsubscribe = useUnsubscribeReminders();
  return (
    <MailedLinkPage title={m.title}>
      <MailedLinkAction
        action={unsubscribe}
        lead={m.lead}
        label={m.confirm}
        missing={m.missing}
        done={() => (
          <p role="status" className="mt-6">
            {m.done}
          </p>
        )}
      />
      <p className="mt-8">
        <Link to={paths.dashboard.myProfile} className="link link-primary">
          {m.profile}
        </Link>
      </p>
    </MailedLinkPage>
  );
}
