import { commonMessages } from "../../shared/messages/common.js";
import { withReference } from "../lib/form-errors.js";

/**
 * What a section shows when its data could not be loaded: the reason and a retry. `error` is the
 * failure, whose request id is shown when the shop failed (5xx) so the customer can quote it.
 */
export function LoadError({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  return (
    <div role="alert" className="alert alert-error alert-soft flex flex-wrap justify-between gap-3">
      <span>{withReference(commonMessages.loadFailed, error)}</span>
      <button type="button" className="btn btn-sm btn-error" onClick={onRetry}>
        {commonMessages.retry}
      </button>
    </div>
  );
}
