import type { ReactNode } from "react";
import { PendingButton } from "./pending-button.js";
import { PendingStatus } from "./pending-status.js";

type Props = {
  pending: boolean;
  /** Refuses the press for a reason of the form's own (e.g. a value it cannot send yet). */
  disabled?: boolean;
  /** The button's width within the form; it is always the primary button. */
  className?: string;
  children: ReactNode;
};

/**
 * The form's main button; shows a spinner and refuses a second press while the request runs. It
 * is disabled until the page's code runs (ScriptButton), so a prerendered form is never sent by
 * the browser on its own, with the password in the address.
 */
export function SubmitButton({ pending, disabled, className = "w-full", children }: Props) {
  return (
    <>
      <PendingButton
        type="submit"
        className={`btn btn-primary ${className}`}
        pending={pending}
        disabled={disabled}
      >
        {children}
      </PendingButton>
      <PendingStatus pending={pending} />
    </>
  );
}
