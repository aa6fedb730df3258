/**
 * An invoice's number as printed and in its file name: "GH-" and at least six digits, e.g.
 * GH-000123 (the database numbers invoices 1, 2, 3, … without a gap; see db/schema/invoices.ts).
 */
export function invoiceNumber(number: number): string {
  return `GH-${String(number).padStart(6, "0")}`;
}

/** The file an invoice downloads as, e.g. invoice-GH-000123.pdf. */
export function invoiceFilename(number: number): string {
  return `invoice-${invoiceNumber(number)}.pdf`;
}

/** Where My Orders downloads an order's invoice (GET /api/orders/{id}/invoice.pdf). */
export function invoicePath(orderId: string): string {
  return `/api/orders/${encodeURIComponent(orderId)}/invoice.pdf`;
}
