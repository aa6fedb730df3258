import { type ReactNode, useId } from "react";

/** What the frame hands its control so the label, the error and the hint point at it. */
type FieldControlProps = {
  id: string;
  "aria-invalid": true | undefined;
  "aria-describedby": string | undefined;
};

/** The words around a field, which every field component takes. */
export type FieldTextProps = {
  label: string;
  /** The field's validation message, shown in red under it. */
  error?: string | undefined;
  /** A short rule shown under the field while it has no error. */
  hint?: string | undefined;
};

type Props = FieldTextProps & {
  /** Announce the error as it appears, for errors that come without a submit (e.g. a refused file). */
  alertError?: boolean;
  children(control: FieldControlProps): ReactNode;
};

/**
 * The label, hint and error around one form control, tied to it by id so screen readers read the
 * label and whichever line is shown under the field.
 */
export function FieldFrame({ label, error, hint, alertError, children }: Props) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      {children({
        id,
        "aria-invalid": error ? true : undefined,
        "aria-describedby": error ? errorId : hint ? hintId : undefined,
      })}
      {error ? (
        <p id={errorId} className="text-sm text-error" role={alertError ? "alert" : undefined}>
          {error}
        </p>
      ) : hint ? (
        <p id={hintId} className="text-xs text-base-content/75">
          {hint}
        </p>
      ) : null}
    </div>
  );
}
