import { commonMessages } from "../../shared/messages/common.js";

/** Says "loading" to screen readers while a request runs: a button's spinner is only visual. */
export function PendingStatus({ pending }: { pending: boolean }) {
  return (
    <span role="status" className="sr-only">
      {pending ? commonMessages.loading : ""}
    </span>
  );
}
