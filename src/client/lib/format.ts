const usd = new Intl.NumberFormat("en-US", {
  style: "currency",
  currency: "USD",
  maximumFractionDigits: 0,
});

const count = new Intl.NumberFormat("en-US");

/** A whole-dollar amount as shown in the shop, e.g. "$1,299". */
export function formatPrice(dollars: number): string {
  return usd.format(dollars);
}

export function formatCount(value: number): string {
  return count.format(value);
}

const day = new Intl.DateTimeFormat("en-US", { dateStyle: "medium" });

/** When something happened, as a day in the visitor's time zone, e.g. "Nov 23, 2026". */
export function formatDay(iso: string): string {
  return day.format(new Date(iso));
}
