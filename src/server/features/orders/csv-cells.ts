import { type SQL, sql } from "drizzle-orm";
import { orders } from "../../db/schema/index.js";
import { cell, quote, utc } from "../../lib/csv.js";

const o = orders;
/** Cents as decimal dollars with two decimals ("1299.50"), as a spreadsheet reads a number. */
const dollars = (cents: SQL) => quote(sql`to_char(${cents} / 100.0, 'FM999999999990.00')`);

/**
 * An order's fields as CSV cells written by PostgreSQL, the same in every export of orders (the
 * admins' export, this folder's csv.ts, and the customer's own, features/my-data): ids and numbers
 * quoted, moments in UTC, amounts in dollars, and every text a person typed (the customer's, an
 * admin's carrier and tracking number, a discount code, which may start with a dash) made safe
 * (lib/csv.ts).
 */
export const orderCells = {
  id: quote(sql`${o.id}::text`),
  /** As shared/format.ts orderNumber writes it: "#" and the id's first 8 digits, upper case. */
  number: quote(sql`'#' || upper(left(${o.id}::text, 8))`),
  placedAt: quote(utc(sql`${o.createdAt}`)),
  productName: cell(sql`${o.productName}`),
  productId: quote(sql`${o.productId}::text`),
  quantity: quote(sql`${o.quantity}::text`),
  unitPrice: quote(sql`${o.unitPrice}::text`),
  totalPrice: quote(sql`${o.totalPrice}::text`),
  name: cell(sql`${o.name}`),
  email: cell(sql`${o.email}`),
  phone: cell(sql`${o.phone}`),
  address: cell(sql`${o.address}`),
  transactionId: cell(sql`${o.transactionId}`),
  paidAt: quote(utc(sql`${o.paidAt}`)),
  shippedAt: quote(utc(sql`${o.shippedAt}`)),
  refundedAt: quote(utc(sql`${o.refundedAt}`)),
  expiredAt: quote(utc(sql`${o.expiredAt}`)),
  carrier: cell(sql`${o.carrier}`),
  trackingNumber: cell(sql`${o.trackingNumber}`),
  // The amounts as booked (net + tax = gross, the amount charged) and the rate in percent.
  discountCode: cell(sql`${o.discountCode}`),
  discount: dollars(sql`${o.discountCents}`),
  net: dollars(sql`${o.netCents}`),
  tax: dollars(sql`${o.taxCents}`),
  taxRate: quote(sql`to_char(${o.taxRateBp} / 100.0, 'FM990.00')`),
  gross: dollars(sql`${o.grossCents}`),
  companyName: cell(sql`${o.companyName}`),
  companyTaxId: cell(sql`${o.companyTaxId}`),
};
