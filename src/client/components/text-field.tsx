import type { ComponentProps } from "react";
import { FieldFrame, type FieldTextProps } from "./field-frame.js";

type Props = Omit<ComponentProps<"input">, "id" | "className"> & FieldTextProps;

/** A labelled input whose error is tied to it for screen readers; takes react-hook-form's register(). */
export function TextField({ label, error, hint, ...input }: Props) {
  return (
    <FieldFrame label={label} error={error} hint={hint}>
      {(control) => (
        <input {...control} className={`input w-full ${error ? "input-error" : ""}`} {...input} />
      )}
    </FieldFrame>
  );
}
