import { useState } from "react";
import { problemMessage } from "../../../lib/form-errors.js";

/**
 * One card payment at a time, and the message shown in red under the form: the provider's refusal
 * (`refuse`) or whatever the attempt throws (the network, the shop), which `onFailure` hears too.
 */
export function useCardPayment(onFailure?: (failure: unknown) => void) {
  const [error, setError] = useState<string>();
  const [paying, setPaying] = useState(false);

  async function pay(attempt: () => Promise<void>) {
    setPaying(true);
    setError(undefined);
    try {
      await attempt();
    } catch (failure) {
      setError(problemMessage(failure));
      onFailure?.(failure);
    } finally {
      setPaying(false);
    }
  }

  return { error, paying, pay, refuse: setError };
}
