import { commonMessages } from "../../shared/messages/common.js";

/** What a section shows when its data could not be loaded: the reason and a retry. */
export function LoadError({ onRetry }: { onRetry: () => void }) {
  return (
    <div role="alert" className="alert alert-error alert-soft flex flex-wrap justify-between gap-3">
      <span>{commonMessages.loadFailed}</span>
      <button type="button" className="btn btn-sm btn-error" onClick={onRetry}>
        {commonMessages.retry}
      </button>
    </div>
  );
}
