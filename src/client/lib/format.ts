export { formatPrice } from "../../shared/format.js";

const count = new Intl.NumberFormat("en-US");

export function formatCount(value: number): string {
  return count.format(value);
}

const day = new Intl.DateTimeFormat("en-US", { dateStyle: "medium" });

/** When something happened, as a day in the visitor's time zone, e.g. "Nov 23, 2026". */
export function formatDay(iso: string): string {
  return day.format(new Date(iso));
}
