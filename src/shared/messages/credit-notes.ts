/** The credit note PDF of a refunded order (server/features/invoices/credit-note.ts) and its download's answers. */
import { countOf } from "./common.js";
import { paperMessages } from "./invoices.js";

export const creditNoteMessages = {
  ...paperMessages,
  title: "Credit note",
  number: "Credit note number",
  credits: "Credits invoice",
  buyer: "Credit to",
  company: (name: string) => `Company: ${name}`,
  buyerTaxId: (id: string) => `Tax ID: ${id}`,
  discount: (code: string | null) => (code ? `Discount (${code})` : "Discount"),
  net: "Net",
  tax: (rate: string, included: boolean) => `Tax ${rate}${included ? " (included in the prices)" : ""}`,
  gross: "Total credited",
  lead: (invoice: string, date: string) =>
    `This credit note cancels invoice ${invoice} in full: the order was refunded on ${date} to the card that paid it. The invoice stays as it was issued.`,
  /** PDF metadata. */
  subject: (number: string, invoice: string) => `Credit note ${number} for invoice ${invoice}`,
  notIssued: "This order has no credit note: a credit note is issued when a paid order is refunded.",
  rateLimited: (max: number, seconds: number) => {
    const minutes = Math.max(1, Math.ceil(seconds / 60));
    return `You can download at most ${countOf(max, "credit note")} an hour. Please try again in ${countOf(minutes, "minute")}.`;
  },
};
