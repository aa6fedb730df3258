import type { ReactNode } from "react";
import { messages } from "../../../../shared/messages.js";

/** The form's main button; shows a spinner and refuses a second press while the request runs. */
export function SubmitButton({ pending, children }: { pending: boolean; children: ReactNode }) {
  return (
    <>
      <button type="submit" className="btn btn-primary w-full" disabled={pending}>
        {pending ? <span className="loading loading-spinner loading-sm" aria-hidden="true" /> : null}
        {children}
      </button>
      <span role="status" className="sr-only">
        {pending ? messages.common.loading : ""}
      </span>
    </>
  );
}
