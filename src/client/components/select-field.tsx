import { type ComponentProps, useId } from "react";

type Props = Omit<ComponentProps<"select">, "id" | "className"> & {
  label: string;
  /** The field's validation message, shown in red under it. */
  error?: string | undefined;
};

/** A labelled select whose error is tied to it for screen readers; takes react-hook-form's register(). */
export function SelectField({ label, error, children, ...select }: Props) {
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      <select
        id={id}
        className={`select w-full ${error ? "select-error" : ""}`}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        {...select}
      >
        {children}
      </select>
      {error ? (
        <p id={errorId} className="text-sm text-error">
          {error}
        </p>
      ) : null}
    </div>
  );
}
