import type { ComponentProps } from "react";
import { TextField } from "./text-field.js";

type Props = Omit<ComponentProps<typeof TextField>, "type" | "inputMode" | "step">;

/** A labelled whole number (a quantity, a price, a rating): the numeric keyboard, steps of one. */
export function WholeNumberField(props: Props) {
  return <TextField type="number" inputMode="numeric" step={1} {...props} />;
}
