import { type ComponentProps, useId } from "react";

type Props = Omit<ComponentProps<"textarea">, "id" | "className"> & {
  label: string;
  /** The field's validation message, shown in red under it. */
  error?: string | undefined;
  /** A short rule shown under the field while it has no error. */
  hint?: string | undefined;
};

/** TextField's multi-line sibling: a labelled textarea whose error is tied to it; takes register(). */
export function TextareaField({ label, error, hint, ...textarea }: Props) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      <textarea
        id={id}
        className={`textarea w-full ${error ? "textarea-error" : ""}`}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : hint ? hintId : undefined}
        {...textarea}
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
