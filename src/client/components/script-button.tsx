import type { ComponentProps } from "react";
import { useHydrated } from "../lib/use-hydrated.js";

/**
 * A button whose press only the page's code can answer. In a prerendered page it is disabled until
 * that code runs (useHydrated): a press before then would do nothing at all, or send a form the
 * way the browser does on its own.
 */
export function ScriptButton({ type = "button", disabled, ...button }: ComponentProps<"button">) {
  const hydrated = useHydrated();
  return <button type={type} disabled={disabled || !hydrated} {...button} />;
}
