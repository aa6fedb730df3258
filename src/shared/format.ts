const usd = new Intl.NumberFormat("en-US", {
  style: "currency",
  currency: "USD",
  maximumFractionDigits: 0,
});

/**
 * A whole-dollar amount as the shop shows it, e.g. "$1,299": on its pages and in the documents the
 * server makes (invoices), so both say the same.
 */
export function formatPrice(dollars: number): string {
  return usd.format(dollars);
}
