import type { ComponentProps } from "react";
import { ScriptButton } from "./script-button.js";

type Props = ComponentProps<"button"> & {
  /** While true the button shows a spinner and refuses a second press. */
  pending: boolean;
  /** The spinner's size: `xs` suits a `btn-sm` button. */
  spinner?: "xs" | "sm";
};

const SPINNER_CLASS = {
  xs: "loading loading-spinner loading-xs",
  sm: "loading loading-spinner loading-sm",
} as const;

/**
 * A button whose request is running: the spinner before its label says so to sighted users. Like
 * every ScriptButton, it waits for the page's code.
 */
export function PendingButton({
  pending,
  spinner = "sm",
  type = "button",
  disabled,
  children,
  ...button
}: Props) {
  return (
    <ScriptButton type={type} disabled={pending || disabled} {...button}>
      {pending ? <span className={SPINNER_CLASS[spinner]} aria-hidden="true" /> : null}
      {children}
    </ScriptButton>
  );
}
