import type { ComponentProps } from "react";
import { TextField } from "./text-field.js";

type Props = Omit<ComponentProps<typeof TextField>, "type" | "inputMode" | "autoComplete">;

/**
 * A labelled number with decimals (a percentage, an amount), kept as the text typed so the schema
 * reads it: the decimal keyboard, and no autofill, which has nothing to offer here.
 */
export function DecimalField(props: Props) {
  return <TextField inputMode="decimal" autoComplete="off" {...props} />;
}
