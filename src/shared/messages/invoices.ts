/** The invoice PDF of a paid order (server/features/invoices) and its download's answers. */
import { countOf } from "./common.js";

export const invoiceMessages = {
  title: "Invoice",
  number: "Invoice number",
  issued: "Issue date",
  seller: "From",
  buyer: "Bill to",
  taxId: (id: string) => `VAT / registration no.: ${id}`,
  phone: (phone: string) => `Phone: ${phone}`,
  columns: {
    product: "Product",
    unitPrice: "Unit price",
    quantity: "Quantity",
    lineTotal: "Line total",
  },
  total: "Total",
  payment: "Payment",
  paidAt: "Payment date",
  transactionId: "Transaction id",
  footer: (orderId: string) => `Order ${orderId}. Amounts in US dollars. Dates in UTC.`,
  /** PDF metadata. */
  subject: (number: string) => `Invoice ${number}`,
  notIssued: "This order has no invoice: an invoice is issued when an order is paid.",
  rateLimited: (max: number, seconds: number) => {
    const minutes = Math.max(1, Math.ceil(seconds / 60));
    return `You can download at most ${countOf(max, "invoice")} an hour. Please try again in ${countOf(minutes, "minute")}.`;
  },
};
