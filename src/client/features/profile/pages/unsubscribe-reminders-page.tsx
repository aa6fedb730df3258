import { Link, useSearchParams } from "react-router";
import { mailPreferenceMessages } from "../../../../shared/messages/mail-preferences.js";
import { PageTitle } from "../../../components/page-title.js";
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
    <div className="mx-auto max-w-xl px-4 py-16 sm:px-6">
      <PageTitle title={m.title} />
      <h1 className="text-3xl font-bold">{m.title}</h1>
      {unsubscribe.isSuccess ? (
        <p role="status" className="mt-6">
          {m.done}
        </p>
      ) : (
        <>
          <p className="mt-4 text-base-content/80">{m.lead}</p>
          {unsubscribe.isError || !token ? (
            <p role="alert" className="alert alert-error mt-6">
              {token ? problemMessage(unsubscribe.error) : m.missing}
            </p>
          ) : null}
          <button
            type="button"
            className="btn btn-primary mt-8"
            disabled={unsubscribe.isPending || !token}
            onClick={() => unsubscribe.mutate(token)}
          >
            {m.confirm}
          </button>
        </>
      )}
      <p className="mt-8">
        <Link to={paths.dashboard.myProfile} className="link link-primary">
          {m.profile}
        </Link>
      </p>
    </div>
  );
}
