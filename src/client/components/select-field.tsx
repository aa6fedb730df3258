import type { ComponentProps } from "react";
import { FieldFrame, type FieldTextProps } from "./field-frame.js";

type Props = Omit<ComponentProps<"select">, "id" | "className"> & Omit<FieldTextProps, "hint">;

/** A labelled select whose error is tied to it for screen readers; takes react-hook-form's register(). */
export function SelectField({ label, error, children, ...select }: Props) {
  return (
    <FieldFrame label={label} error={error}>
      {(control) => (
        <select {...control} className={`select w-full ${error ? "select-error" : ""}`} {...select}>
          {children}
        </select>
      )}
    </FieldFrame>
  );
}
