/** The invoice PDF of a paid order (server/features/invoices) and its download's answers. */
import { countOf } from "./common.js";

/** What an invoice and a credit note (./credit-notes.ts) print alike. */
export const paperMessages = {
  issued: "Issue date",
  seller: "From",
  taxId: (id: string) => `VAT / registration no.: ${id}`,
  phone: (phone: string) => `Phone: ${phone}`,
  columns: {
    product: "Product",
    unitPrice: "Unit price",
    quantity: "Quantity",
    lineTotal: "Line total",
  },
  footer: (orderId: string) => `Order ${orderId}. Amounts in US dollars. Dates in UTC.`,
};

export const invoiceMessages = {
  ...paperMessages,
  title: "Invoice",
  number: "Invoice number",
  buyer: "Bill to",
  total: "Total",
  payment: "Payment",
  paidAt: "Payment date",
  transactionId: "Transaction id",
  /** PDF metadata. */
  subject: (number: string) => `Invoice ${number}`,
  notIssued: "This order has no invoice: an invoice is issued when an order is paid.",
  rateLimited: (max: number, seconds: number) => {
    const minutes = Math.max(1, Math.ceil(seconds / 60));
    return `You can download at most ${countOf(max, "invoice")} an hour. Please try again in ${countOf(minutes, "minute")}.`;
  },
};
