import type { ReactNode } from "react";
import { SubmitButton } from "./submit-button.js";

type Props = {
  label: string;
  pending: boolean;
  /** Refuses the press for a reason of the form's own (e.g. a quantity it cannot book). */
  disabled?: boolean;
  /** The button's width within the row (SubmitButton's className). */
  buttonClass?: string;
  /** What the button sums up, at the row's start (a total); the button then goes to its end. */
  before?: ReactNode;
  /** A note after the button (when the settings were last saved). */
  after?: ReactNode;
};

/**
 * A form's actions: its submit button and what stands beside it, in one row that wraps on a narrow
 * screen.
 */
export function SubmitRow({ label, pending, disabled, buttonClass, before, after }: Props) {
  return (
    <div className={`flex flex-wrap items-center gap-4 ${before ? "justify-between" : ""}`}>
      {before}
      <SubmitButton pending={pending} disabled={disabled} className={buttonClass}>
        {label}
      </SubmitButton>
      {after}
    </div>
  );
}
