/**
 * What an order costs, as every place that shows it says it (docs/product.md, "Prices"): My Orders,
 * Manage Orders, the payment page, the order mails and the invoice. Read from the order's stored
 * amounts only (net + tax = gross, as booked), never worked out again, so a change of the shop's
 * tax rate or of a code leaves every order and invoice as it was booked.
 */
import { formatPrice } from "./format.js";
import { pricingMessages } from "./messages/pricing.js";
import type { Order } from "./orders.js";
import { formatCents, formatRate } from "./pricing.js";

const m = pricingMessages.amounts;

/** The fields of an order its amounts are read from. */
export type OrderAmounts = Pick<
  Order,
  | "totalPrice"
  | "discountCode"
  | "discountCents"
  | "netCents"
  | "taxCents"
  | "grossCents"
  | "taxRateBp"
  | "pricesIncludeTax"
>;

type AmountLineKey = "subtotal" | "discount" | "net" | "tax" | "gross";

export interface AmountLine {
  key: AmountLineKey;
  label: string;
  /** Signed: the discount is negative. */
  cents: number;
  /** The amount as written: always with its cents ("$1,299.00", "-$12.50"). */
  amount: string;
}

/**
 * The order's amounts, top to bottom: the subtotal (unit price × quantity) and the discount with
 * its code when there is one, then the net and the tax at its rate (added to the net, or included
 * in the total when the prices included it), then the total the card is charged (the gross).
 * Net + tax = total, always, as stored. `all`: the net and the tax even at a rate of 0%, as the
 * invoice states them; otherwise a line that says nothing new is left out, and an order with
 * neither a discount nor tax is its total alone.
 */
export function amountLines(order: OrderAmounts, { all = false }: { all?: boolean } = {}): AmountLine[] {
  const lines: AmountLine[] = [];
  const add = (key: AmountLineKey, label: string, cents: number) =>
    lines.push({ key, label, cents, amount: formatCents(cents) });
  if (order.discountCents > 0) {
    add("subtotal", m.subtotal, order.totalPrice * 100);
    add(
      "discount",
      order.discountCode ? m.discountCode(order.discountCode) : m.discount,
      -order.discountCents,
    );
  }
  if (all || order.taxRateBp > 0 || order.taxCents > 0) {
    const rate = formatRate(order.taxRateBp);
    add("net", m.net, order.netCents);
    add("tax", order.pricesIncludeTax ? m.taxIncluded(rate) : m.tax(rate), order.taxCents);
  }
  add("gross", m.gross, order.grossCents);
  return lines;
}

/**
 * A total as the shop's lists show it, beside its prices in whole dollars: "$1,299" when whole,
 * "$1,299.50" with its cents otherwise.
 */
export const formatTotal = (cents: number) =>
  cents % 100 === 0 ? formatPrice(cents / 100) : formatCents(cents);

/** What a customer pays for the order: its gross, as a total (formatTotal). */
export const orderTotal = (order: Pick<Order, "grossCents">) => formatTotal(order.grossCents);

/** The buyer's company and tax ID as an invoice and a mail print them; none when not given. */
export function companyLines(order: Pick<Order, "companyName" | "companyTaxId">): string[] {
  const lines: string[] = [];
  const name = order.companyName?.trim();
  const taxId = order.companyTaxId?.trim();
  if (name) lines.push(name);
  if (taxId) lines.push(pricingMessages.company.taxIdLine(taxId));
  return lines;
}
