import { useSyncExternalStore } from "react";

const never = () => () => {};

/**
 * False in a prerendered page until React has taken it over (and in the prerender itself), true
 * from then on, and at once in a page React draws from nothing. A form that needs the app's code
 * keeps its button disabled until then: sent by the browser alone, a sign-in form would put the
 * password in the address.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    never,
    () => true,
    () => false,
  );
}
