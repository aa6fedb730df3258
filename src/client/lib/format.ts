export { formatPrice } from "../../shared/format.js";

// Made on first use, as in shared/format.ts: the first formatter loads the locale's data.
let count: Intl.NumberFormat | undefined;
let day: Intl.DateTimeFormat | undefined;

export function formatCount(value: number): string {
  count ??= new Intl.NumberFormat("en-US");
  return count.format(value);
}

/** When something happened, as a day in the visitor's time zone, e.g. "Nov 23, 2026". */
export function formatDay(iso: string): string {
  day ??= new Intl.DateTimeFormat("en-US", { dateStyle: "medium" });
  return day.format(new Date(iso));
}

/**
 * An instant as the admin lists and the CSV exports write it, in UTC: "2026-11-26 14:05 UTC", or
 * with its seconds ("14:05:09") where two entries a minute apart must read apart (the activity log).
 */
export function formatUtc(iso: string, { seconds = false }: { seconds?: boolean } = {}): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, seconds ? 19 : 16)} UTC`;
}
