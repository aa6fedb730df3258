import type { ReactNode } from "react";
import { SubmitButton } from "./submit-button.js";

type Props = {
  label: string;
  pending: boolean;
  /** Refuses the press for a reason of the form's own (e.g. a quantity it cannot book). */
  disabled?: boolean;
  /** The button's width: its own unless given (e.g. `w-full`, or a least width). */
  buttonClass?: string;
  /** What the button sums up, at the row's start (a total). */
  before?: ReactNode;
  /** A line after the button (when the settings were last saved). */
  note?: string;
};

/** A form's actions: its submit button and what stands beside it, in a row that wraps on a narrow screen. */
export function SubmitRow({ label, pending, disabled, buttonClass = "", before, note }: Props) {
  // With something before it, the button goes to the row's far end.
  const row = before
    ? "flex flex-wrap items-center justify-between gap-4"
    : "flex flex-wrap items-center gap-4";
  return (
    <div className={row}>
      {before}
      <SubmitButton pending={pending} disabled={disabled} className={buttonClass}>
        {label}
      </SubmitButton>
      {note ? <p className="text-sm text-base-content/75">{note}</p> : null}
    </div>
  );
}
