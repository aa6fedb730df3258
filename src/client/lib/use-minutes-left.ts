import { useEffect, useState } from "react";

const MINUTE = 60_000;

/**
 * The whole minutes until `until` (an ISO instant), a part of one counting as one: 0 once it has
 * passed, null without one. The component re-renders only when that count changes, once a minute at most (a timer set
 * for the moment it drops), so a list of countdowns never re-renders every second.
 */
export function useMinutesLeft(until: string | null): number | null {
  const end = until ? Date.parse(until) : Number.NaN;
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (Number.isNaN(end)) return;
    const left = end - Date.now();
    if (left <= 0) {
      // Shown as it was when rendered: catch up once if the deadline passed since.
      if (now < end) setNow(Date.now());
      return;
    }
    const timer = setTimeout(() => setNow(Date.now()), ((left - 1) % MINUTE) + 1);
    return () => clearTimeout(timer);
  }, [end, now]);
  if (Number.isNaN(end)) return null;
  return Math.max(0, Math.ceil((end - now) / MINUTE));
}
