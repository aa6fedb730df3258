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

/**
 * An order's number as people quote it: the start of its id, as the order mails name it and Manage
 * Orders shows it (the whole id ends My Orders' links and finds the order in Manage Orders' search).
 */
export function orderNumber(id: string): string {
  return `#${id.slice(0, 8).toUpperCase()}`;
}
