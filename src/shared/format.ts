// Formatters are made on first use, not when the module loads: the first Intl formatter a page
// makes loads the locale's data, tens of milliseconds on a slow phone, and a page that shows no
// price (/login) should not pay for it before it can be used (docs/decisions/first-page-main-thread.md).
let usd: Intl.NumberFormat | undefined;

/**
 * A whole-dollar amount as the shop shows it, e.g. "$1,299": on its pages and in the documents the
 * server makes (invoices), so both say the same.
 */
export function formatPrice(dollars: number): string {
  usd ??= new Intl.NumberFormat("en-US", { style: "currency", currency: "USD", maximumFractionDigits: 0 });
  return usd.format(dollars);
}

/**
 * An order's number as people quote it: the start of its id, as the order mails name it and Manage
 * Orders shows it (the whole id ends My Orders' links and finds the order in Manage Orders' search).
 */
export function orderNumber(id: string): string {
  return `#${id.slice(0, 8).toUpperCase()}`;
}
