import { Link, useSearchParams } from "react-router";
import { mailPreferenceMessages } from "../../../../shared/messages/mail-preferences.js";
import { MailedLinkAsk, MailedLinkPage } from "../../../components/mailed-link-page.js";
import { problemMessage } from "../../../lib/form-errors.js";
import { paths } from "../../../lib/paths.js";
import { useUnsubscribeReminders } from "../api/mail-preferences.js";

const m = mailPreferenceMessages.unsubscribe;

/**
 * /unsubscribe?token=…: where an optional mail's footer link, or its List-Unsubscribe address opened
 * in a browser, leads. It asks before it turns reminder mails off (a link scanner that follows links
 * turns nothing off); no sign-in needed, the token names the account.
 */
export function UnsubscribeRemindersPage() {
  const [params] = useSearchParams();
  const unsubscribe = useUnsubscribeReminders();
  const token = params.get("token") ?? "";
  return (
    <MailedLinkPage title={m.title}>
      {unsubscribe.isSuccess ? (
        <p role="status" className="mt-6">
          {m.done}
        </p>
      ) : (
        <MailedLinkAsk
          lead={m.lead}
          error={!token ? m.missing : unsubscribe.isError ? problemMessage(unsubscribe.error) : undefined}
          disabled={unsubscribe.isPending || !token}
          label={m.confirm}
          onConfirm={() => unsubscribe.mutate(token)}
        />
      )}
      <p className="mt-8">
        <Link to={paths.dashboard.myProfile} className="link link-primary">
          {m.profile}
        </Link>
      </p>
    </MailedLinkPage>
  );
}
