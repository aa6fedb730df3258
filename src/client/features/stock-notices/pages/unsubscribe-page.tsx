import { useSearchParams } from "react-router";
import { stockNoticeMessages as m } from "../../../../shared/messages/stock-notices.js";
import { MailedLinkAsk, MailedLinkPage } from "../../../components/mailed-link-page.js";
import { problemMessage } from "../../../lib/form-errors.js";
import { useUnsubscribe } from "../api/stock-notices.js";

/**
 * /stock-notices/unsubscribe?id=…&token=…: the link of a back-in-stock mail. It asks before it
 * unsubscribes, so a mail scanner that follows the link changes nothing; no sign-in needed.
 */
export function UnsubscribePage() {
  const [params] = useSearchParams();
  const unsubscribe = useUnsubscribe();
  const id = params.get("id") ?? "";
  const token = params.get("token") ?? "";
  return (
    <MailedLinkPage title={m.unsubscribe.title}>
      {unsubscribe.isSuccess ? (
        <p role="status" className="mt-6">
          {m.unsubscribe.done}
        </p>
      ) : (
        <MailedLinkAsk
          lead={m.unsubscribe.lead}
          error={unsubscribe.isError ? problemMessage(unsubscribe.error) : undefined}
          disabled={unsubscribe.isPending}
          label={m.unsubscribe.confirm}
          onConfirm={() => unsubscribe.mutate({ id, token })}
        />
      )}
    </MailedLinkPage>
  );
}
