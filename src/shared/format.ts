/**
 * Made only for what the digits below do not cover (see formatPrice): the first Intl formatter a
 * page makes loads the locale's data, tens of milliseconds on a slow phone.
 */
let usd: Intl.NumberFormat | undefined;

/** Up to here every whole number is exact, and String() writes it without an exponent. */
const PLAIN_DIGITS_BELOW = Number.MAX_SAFE_INTEGER;

/**
 * A whole-dollar amount as the shop shows it, e.g. "$1,299": on its pages and in the documents the
 * server makes (invoices), so both say the same. Written out by hand, the way en-US's currency
 * format with no fraction digits writes it (format.test.ts compares the two): the home page's
 * product cards would otherwise load the locale's data, in one long task, just after it has become
 * usable (docs/decisions/first-page-main-thread.md).
 */
export function formatPrice(dollars: number): string {
  // Rounded half away from zero, as Intl rounds; -0 keeps its sign, as Intl writes it ("-$0").
  const whole = Math.round(Math.abs(dollars));
  if (!(whole < PLAIN_DIGITS_BELOW)) {
    usd ??= new Intl.NumberFormat("en-US", { style: "currency", currency: "USD", maximumFractionDigits: 0 });
    return usd.format(dollars);
  }
  const negative = dollars < 0 || Object.is(dollars, -0);
  return `${negative ? "-" : ""}$${String(whole).replace(/\B(?=(\d{3})+$)/g, ",")}`;
}

/**
 * An order's number as people quote it: the start of its id, as the order mails name it and Manage
 * Orders shows it (the whole id ends My Orders' links and finds the order in Manage Orders' search).
 */
export function orderNumber(id: string): string {
  return `#${id.slice(0, 8).toUpperCase()}`;
}
