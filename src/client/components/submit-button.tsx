import type { ReactNode } from "react";
import { PendingButton } from "./pending-button.js";
import { PendingStatus } from "./pending-status.js";

type Props = {
  pending: boolean;
  /** Refuses the press for a reason of the form's own (e.g. a value it cannot send yet). */
  disabled?: boolean;
  /** The button's width within the form; it is always the primary button. */
  className?: string;
  /**
   * Pressable as soon as a prerendered page shows, before its code runs: boot.ts enables it and
   * holds a press until the code has taken the form over (the sign-in form, issue 34).
   */
  early?: boolean;
  children: ReactNode;
};

/**
 * The form's main button; shows a spinner and refuses a second press while the request runs. It
 * is disabled until the page's code runs (ScriptButton), so a prerendered form is never sent by
 * the browser on its own, with the password in the address.
 */
export function SubmitButton({ pending, disabled, className = "w-full", early, children }: Props) {
  return (
    <>
      <PendingButton
        type="submit"
        className={`btn btn-primary ${className}`}
        pending={pending}
        disabled={disabled}
        data-early={early ? "" : undefined}
      >
        {children}
      </PendingButton>
      <PendingStatus pending={pending} />
    </>
  );
}
