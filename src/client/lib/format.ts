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
