/**
 * A credit note's number as printed and in its file name: "CN-" and at least six digits, e.g.
 * CN-000042 (the database numbers credit notes 1, 2, 3, … without a gap, in a series of their own
 * apart from the invoices' GH- series; see db/schema/credit-notes.ts).
 */
export function creditNoteNumber(number: number): string {
  return `CN-${String(number).padStart(6, "0")}`;
}

/** The file a credit note downloads as, e.g. credit-note-CN-000042.pdf. */
export function creditNoteFilename(number: number): string {
  return `credit-note-${creditNoteNumber(number)}.pdf`;
}

/** Where My Orders and Manage Orders download an order's credit note (GET /api/orders/{id}/credit-note.pdf). */
export function creditNotePath(orderId: string): string {
  return `/api/orders/${encodeURIComponent(orderId)}/credit-note.pdf`;
}
