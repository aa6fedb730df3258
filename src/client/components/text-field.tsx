import { type ComponentProps, useId } from "react";

type Props = Omit<ComponentProps<"input">, "id" | "className"> & {
  label: string;
  /** The field's validation message, shown in red under it. */
  error?: string | undefined;
  /** A short rule shown under the field while it has no error. */
  hint?: string | undefined;
};

/** A labelled input whose error is tied to it for screen readers; takes react-hook-form's register(). */
export function TextField({ label, error, hint, ...input }: Props) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = error ? errorId : hint ? hintId : undefined;
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      <input
        id={id}
        className={`input w-full ${error ? "input-error" : ""}`}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        {...input}
      />
      {error ? (
        <p id={errorId} className="text-sm text-error">
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
