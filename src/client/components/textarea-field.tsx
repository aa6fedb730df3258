import type { ComponentProps } from "react";
import { FieldFrame, type FieldTextProps } from "./field-frame.js";

type Props = Omit<ComponentProps<"textarea">, "id" | "className"> & FieldTextProps;

/** TextField's multi-line sibling: a labelled textarea whose error is tied to it; takes register(). */
export function TextareaField({ label, error, hint, ...textarea }: Props) {
  return (
    <FieldFrame label={label} error={error} hint={hint}>
      {(control) => (
        <textarea {...control} className={`textarea w-full ${error ? "textarea-error" : ""}`} {...textarea} />
      )}
    </FieldFrame>
  );
}
