import { useSearchParams } from "react-router";
import { stockNoticeMessages as m } from "../../../../shared/messages/stock-notices.js";
import { PageTitle } from "../../../components/page-title.js";
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
    <div className="mx-auto max-w-xl px-4 py-16 sm:px-6">
      <PageTitle title={m.unsubscribe.title} />
      <h1 className="text-3xl font-bold">{m.unsubscribe.title}</h1>
      {unsubscribe.isSuccess ? (
        <p role="status" className="mt-6">
          {m.unsubscribe.done}
        </p>
      ) : (
        <>
          <p className="mt-4 text-base-content/80">{m.unsubscribe.lead}</p>
          {unsubscribe.isError ? (
            <p role="alert" className="alert alert-error mt-6">
              {problemMessage(unsubscribe.error)}
            </p>
          ) : null}
          <button
            type="button"
            className="btn btn-primary mt-8"
            disabled={unsubscribe.isPending}
            onClick={() => unsubscribe.mutate({ id, token })}
          >
            {m.unsubscribe.confirm}
          </button>
        </>
      )}
    </div>
  );
}
