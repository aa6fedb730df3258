import { eq, sql } from "drizzle-orm";
import { creditNoteFilename, creditNoteNumber } from "../../../shared/credit-notes.js";
import { formatPrice, orderNumber } from "../../../shared/format.js";
import { invoiceNumber } from "../../../shared/invoices.js";
import { creditNoteMessages as text } from "../../../shared/messages/credit-notes.js";
import { orderMessages } from "../../../shared/messages/orders.js";
import { formatCents, formatRate } from "../../../shared/pricing.js";
import type { Seller } from "../../config.js";
import type { Db } from "../../db/client.js";
import { creditNotes, orders, shopSettings } from "../../db/schema/index.js";
import {
  addressLines,
  day,
  type FoundPaper,
  moment,
  orderOnPaper,
  type PaperOrder,
  paper,
  paperPdf,
  printable,
  sellerLines,
} from "./pdf.js";

/**
 * What a credit note shows, read with its order in one query: it credits the order's invoice in
 * full, so its amounts are the order's as booked (net, tax, gross), printed as negative.
 */
export interface CreditNoteData extends PaperOrder {
  number: number;
  /** The invoice it credits. */
  invoiceNumber: number;
  /** When the order was refunded: the credit note's issue date. */
  issuedAt: Date;
  /** What was credited: the order's gross, the amount the card was charged and refunded. */
  grossCents: number;
  /** The shop's tax ID from its settings (shop_settings.tax_id), "" when it has none there. */
  shopTaxId: string;
}

/** The order and its credit note, undefined for no such order. */
export async function findOrderCreditNote(
  db: Db,
  orderId: string,
): Promise<FoundPaper<CreditNoteData> | undefined> {
  const [row] = await db
    .select({ order: orders, note: creditNotes, shopTaxId: shopSettings.taxId })
    .from(orders)
    .leftJoin(creditNotes, eq(creditNotes.orderId, orders.id))
    .leftJoin(shopSettings, sql`true`)
    .where(eq(orders.id, orderId));
  if (!row) return undefined;
  const { order, note, shopTaxId } = row;
  if (!note) return { userId: order.userId, paper: undefined };
  return {
    userId: order.userId,
    paper: {
      number: note.number,
      invoiceNumber: note.invoiceNumber,
      issuedAt: note.issuedAt,
      ...orderOnPaper(order),
      // What was credited: the refund's amount, the order's gross.
      grossCents: note.amountCents,
      shopTaxId: shopTaxId ?? "",
    },
  };
}

/**
 * A refunded order's credit note as a PDF, undefined when the order has none (it does not exist,
 * was never paid or is not refunded). The refund mail attaches it, the credit note route sends it;
 * both render through the server's renderer (renderer.ts), this thread's renderCreditNote without.
 */
export const creditNotePdf = paperPdf(findOrderCreditNote, creditNoteFilename, renderCreditNote);

/** An amount taken back: "-$12.50" (nothing taken back is "$0.00"). */
const credited = (cents: number) => formatCents(cents === 0 ? 0 : -cents);

/**
 * Draws the credit note as the invoice is drawn (pdf.ts: DejaVu Sans embedded as a subset, US
 * Letter, the same margins and columns), its amounts negative. Its dates are its issue date, so
 * the same credit note is the same file.
 */
export function renderCreditNote(note: CreditNoteData, seller: Seller): Promise<Buffer> {
  const number = creditNoteNumber(note.number);
  const invoice = invoiceNumber(note.invoiceNumber);
  const out = paper(seller, {
    title: `${text.title} ${number}`,
    subject: text.subject(number, invoice),
    issuedAt: note.issuedAt,
  });
  out.heading(text.title, [
    [text.number, number],
    [text.issued, day.format(note.issuedAt)],
    [text.credits, invoice],
    // The order's own number, as its mails, My Orders and its invoice name it.
    [orderMessages.number, orderNumber(note.orderId)],
  ]);
  out.party(text.seller, sellerLines(seller, note.shopTaxId));
  const { buyer } = note;
  out.party(text.buyer, [
    buyer.name,
    buyer.companyName ? text.company(buyer.companyName) : undefined,
    buyer.companyTaxId ? text.buyerTaxId(buyer.companyTaxId) : undefined,
    buyer.email,
    ...addressLines(buyer.address),
    text.phone(buyer.phone),
  ]);
  out.paragraph(text.lead(invoice, moment.format(note.issuedAt)), 18);
  // The line credited, then the amounts: net, tax and the total credited. A discount lowered what
  // was paid, so it lowers what is credited: it counts the other way.
  out.line(
    text.columns,
    {
      product: printable(note.productName),
      unitPrice: formatPrice(note.unitPrice),
      quantity: String(note.quantity),
      lineTotal: credited(note.totalPrice * 100),
    },
    [
      ...(note.discountCents > 0
        ? [{ label: text.discount(note.discountCode), amount: formatCents(note.discountCents) }]
        : []),
      { label: text.net, amount: credited(note.netCents) },
      { label: text.tax(formatRate(note.taxRateBp), note.pricesIncludeTax), amount: credited(note.taxCents) },
      { label: text.gross, amount: credited(note.grossCents) },
    ],
    20,
  );
  return out.end(text.footer(note.orderId));
}
