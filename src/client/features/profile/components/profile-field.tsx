import { type ComponentProps, useId } from "react";

type Props = Omit<ComponentProps<"input">, "id" | "className"> & {
  label: string;
  /** The field's validation message, shown in red under it. */
  error?: string | undefined;
};

/** A labelled input whose error is tied to it for screen readers; takes react-hook-form's register(). */
export function ProfileField({ label, error, ...input }: Props) {
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      <input
        id={id}
        className={`input w-full ${error ? "input-error" : ""}`}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        {...input}
      />
      {error ? (
        <p id={errorId} className="text-sm text-error">
          {error}
        </p>
      ) : null}
    </div>
  );
}
