import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { eq, sql } from "drizzle-orm";
import * as fontkit from "fontkit";
import PDFDocument from "pdfkit";
import { ADDRESS_MAX_LINES } from "../../../shared/constants.js";
import { orderNumber } from "../../../shared/format.js";
import { invoiceFilename, invoiceNumber } from "../../../shared/invoices.js";
import { paperMessages, invoiceMessages as text } from "../../../shared/messages/invoices.js";
import { orderMessages } from "../../../shared/messages/orders.js";
import { amountLines, type OrderAmounts } from "../../../shared/order-amounts.js";
import { formatCents as formatAmount } from "../../../shared/pricing.js";
import type { Seller } from "../../config.js";
import type { Db } from "../../db/client.js";
import { invoices, orders, shopSettings } from "../../db/schema/index.js";

/**
 * What an invoice and a credit note print of their order (orderOnPaper): its line, its amounts as
 * booked (the subtotal, the discount and its code, the net, the tax at its rate, the gross
 * charged), never worked out again, and its buyer.
 */
export interface PaperOrder extends OrderAmounts {
  orderId: string;
  productName: string;
  unitPrice: number;
  quantity: number;
  buyer: {
    name: string;
    email: string;
    address: string;
    phone: string;
    /** The buyer's company and its tax ID, as booked; empty when not given. */
    companyName: string;
    companyTaxId: string;
  };
}

/**
 * What an invoice shows, read with its order in one query: the order as booked (PaperOrder), so
 * the invoice stays as it was issued whatever the shop's rate or codes do.
 */
export interface InvoiceData extends PaperOrder {
  number: number;
  /** When the order was paid: the invoice's issue date and its payment date. */
  issuedAt: Date;
  /** The shop's tax ID from its settings (shop_settings.tax_id); empty: the configured seller's. */
  sellerTaxId: string;
  transactionId: string | null;
}

/**
 * An order as the invoice and credit note routes need it: whose it is, and its paper (its invoice
 * once paid, its credit note once refunded) if it has one.
 */
export interface FoundPaper<T> {
  userId: string | null;
  paper: T | undefined;
}

/** A paper as a mail attaches it: its number, its file's name and its PDF. */
export interface PaperPdf {
  number: number;
  filename: string;
  pdf: Buffer;
}

/**
 * How an order's paper of one kind is made a PDF: found by `find`, named by `filename`, drawn by
 * `render` (by default this thread's; the server passes its renderer's, renderer.ts). Undefined
 * when the order has none.
 */
export function paperPdf<T extends { number: number }>(
  find: (db: Db, orderId: string) => Promise<FoundPaper<T> | undefined>,
  filename: (number: number) => string,
  drawHere: (paper: T, seller: Seller) => Promise<Buffer>,
) {
  return async (
    db: Db,
    orderId: string,
    seller: Seller,
    render = drawHere,
  ): Promise<PaperPdf | undefined> => {
    const paper = (await find(db, orderId))?.paper;
    if (!paper) return undefined;
    return { number: paper.number, filename: filename(paper.number), pdf: await render(paper, seller) };
  };
}

/**
 * The order and its invoice, undefined for no such order. The invoice stays as it was issued: a
 * refund is told by the order's credit note (credit-note.ts), not on the invoice.
 */
export async function findOrderInvoice(
  db: Db,
  orderId: string,
): Promise<FoundPaper<InvoiceData> | undefined> {
  const [row] = await db
    .select({
      order: orders,
      number: invoices.number,
      issuedAt: invoices.issuedAt,
      sellerTaxId: shopSettings.taxId,
    })
    .from(orders)
    .leftJoin(invoices, eq(invoices.orderId, orders.id))
    // The settings' one row (migration 0024).
    .leftJoin(shopSettings, sql`true`)
    .where(eq(orders.id, orderId));
  if (!row) return undefined;
  const { order, number, issuedAt, sellerTaxId } = row;
  if (number === null || issuedAt === null) return { userId: order.userId, paper: undefined };
  return {
    userId: order.userId,
    paper: {
      number,
      issuedAt,
      ...orderOnPaper(order),
      sellerTaxId: sellerTaxId?.trim() ?? "",
      transactionId: order.transactionId,
    },
  };
}

/**
 * What an invoice and a credit note print of their order: its line, its amounts as booked and its
 * buyer (the company and tax ID trimmed, "" when not given).
 */
export function orderOnPaper(order: typeof orders.$inferSelect): PaperOrder {
  return {
    orderId: order.id,
    productName: order.productName,
    unitPrice: order.unitPrice,
    quantity: order.quantity,
    totalPrice: order.totalPrice,
    discountCode: order.discountCode,
    discountCents: order.discountCents,
    netCents: order.netCents,
    taxCents: order.taxCents,
    grossCents: order.grossCents,
    taxRateBp: order.taxRateBp,
    pricesIncludeTax: order.pricesIncludeTax,
    buyer: {
      name: order.name,
      email: order.email,
      address: order.address,
      phone: order.phone,
      companyName: order.companyName?.trim() ?? "",
      companyTaxId: order.companyTaxId?.trim() ?? "",
    },
  };
}

/**
 * A paid order's invoice as a PDF, undefined when the order has none (it does not exist or was
 * never paid). The receipt mail attaches it, the invoice route sends it; both render through the
 * server's renderer (renderer.ts: a worker thread and a cache), this thread's renderInvoice
 * without one.
 */
export const invoicePdf = paperPdf(findOrderInvoice, invoiceFilename, renderInvoice);

// Dates in UTC, so an invoice reads the same whichever instance makes it, and says so in its footer.
export const day = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeZone: "UTC" });
export const moment = new Intl.DateTimeFormat("en-US", {
  dateStyle: "medium",
  timeStyle: "short",
  hourCycle: "h23",
  timeZone: "UTC",
});

/**
 * The invoice's typeface: DejaVu Sans (the npm package dejavu-fonts-ttf, shipped with the shop,
 * nothing fetched at run time), which draws Latin with every accent, Greek and Cyrillic as
 * themselves (and Armenian, Georgian, Hebrew, Arabic's basic forms). pdfkit embeds only the glyphs
 * a document uses, so a one-page invoice stays about 23 kB. Read once per process (the renderer's
 * worker thread included).
 */
const require = createRequire(import.meta.url);
const FONT_FILES = {
  regular: require.resolve("dejavu-fonts-ttf/ttf/DejaVuSans.ttf"),
  bold: require.resolve("dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf"),
} as const;
const FONT_BYTES = {
  regular: readFileSync(FONT_FILES.regular),
  bold: readFileSync(FONT_FILES.bold),
};
const REGULAR = "DejaVuSans";
const BOLD = "DejaVuSans-Bold";
/** Which characters the typeface draws (the bold face covers the same ones). */
const coverage = fontkit.create(FONT_BYTES.regular);
const drawable = (c: string) =>
  "hasGlyphForCodePoint" in coverage && coverage.hasGlyphForCodePoint(c.codePointAt(0) ?? 0);

/**
 * Text the typeface can show: a character it has no glyph for (Chinese, Japanese, Korean, Thai,
 * Devanagari, emoji…) becomes its plain letter where it has one and "?" otherwise, where pdfkit
 * would print an empty box that reads as nothing. Customers type names, addresses and products.
 */
export function printable(value: string): string {
  let out = "";
  for (const c of oneLine(value).normalize("NFC")) {
    if (drawable(c)) out += c;
    else {
      const plain = c.normalize("NFKD").replace(/\p{M}/gu, "");
      out += plain !== "" && [...plain].every(drawable) ? plain : "?";
    }
  }
  return out;
}

/**
 * A field as one line: every run of line-breaking characters (control characters, U+2028/2029)
 * becomes one space. The shop refuses them in names since issue 28, but an older row may hold one,
 * and a name "Mallory⏎Seller VAT ID: …⏎PAID - TOTAL DUE: $0" printed as three lines of the invoice
 * that read as the seller's and the total's.
 */
function oneLine(value: string): string {
  return value.replace(/[\p{Cc}\u2028\u2029]+/gu, " ").trim();
}

/**
 * An address's lines, each printed on its own line of the buyer's block and nowhere else: at most
 * ADDRESS_MAX_LINES (an older row with more has the rest joined on its last line), blank ones left
 * out.
 */
export function addressLines(address: string): string[] {
  const lines = address
    .split(/\r\n|[\n\r\v\f\u0085\u2028\u2029]/)
    .map(oneLine)
    .filter(Boolean);
  if (lines.length <= ADDRESS_MAX_LINES) return lines;
  return [...lines.slice(0, ADDRESS_MAX_LINES - 1), lines.slice(ADDRESS_MAX_LINES - 1).join(", ")];
}

// US Letter in points (the shop sells in US dollars), with an inch less two tenths around.
const MARGIN = 56;
const WIDTH = 612 - 2 * MARGIN;
/** The line's columns: x from the left margin, width, alignment. */
// The amounts need at most 11 characters ($999,999.00, MAX_ORDER_TOTAL) and the quantity 7: the
// product's name takes the rest, about 48 characters a line before it wraps.
const COLUMNS = [
  { key: "product", x: 0, width: 270, align: "left" },
  { key: "unitPrice", x: 270, width: 80, align: "right" },
  { key: "quantity", x: 350, width: 60, align: "right" },
  { key: "lineTotal", x: 410, width: WIDTH - 410, align: "right" },
] as const;

type Cells = Record<(typeof COLUMNS)[number]["key"], string>;

/**
 * One of the shop's papers (an invoice, a credit note) as pdfkit draws it: US Letter, DejaVu Sans
 * embedded as a subset (see FONT_FILES), the document's dates its issue date, so the same paper is
 * the same file. Its parts are drawn top to bottom; `end` answers the PDF's bytes.
 */
export function paper(seller: Seller, info: { title: string; subject: string; issuedAt: Date }) {
  const doc = new PDFDocument({
    size: "LETTER",
    margin: MARGIN,
    lang: "en-US",
    displayTitle: true,
    info: {
      Title: info.title,
      Subject: info.subject,
      Author: seller.name,
      Creator: seller.name,
      CreationDate: info.issuedAt,
      ModDate: info.issuedAt,
    },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on("data", (chunk: Buffer) => chunks.push(chunk));
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
  });
  doc.registerFont(REGULAR, FONT_BYTES.regular);
  doc.registerFont(BOLD, FONT_BYTES.bold);
  const left = MARGIN;
  let y = 0;

  /** Label and value pairs, one a line, the label bold. */
  const facts = (pairs: [string, string][], gap = 0) => {
    doc.fontSize(10);
    for (const [label, value] of pairs) {
      doc.font(BOLD).text(`${label}: `, left, doc.y + gap, { continued: true });
      doc.font(REGULAR).text(value);
    }
  };
  const cells = (values: Cells, font: string) => {
    doc.font(font).fontSize(10);
    const height = Math.max(...COLUMNS.map((c) => doc.heightOfString(values[c.key], { width: c.width - 8 })));
    for (const c of COLUMNS)
      doc.text(values[c.key], left + c.x + 4, y, { width: c.width - 8, align: c.align });
    y += height + 6;
  };
  const rule = (weight: number) => {
    doc
      .moveTo(left, y)
      .lineTo(left + WIDTH, y)
      .lineWidth(weight)
      .strokeColor("#444444")
      .stroke();
    y += 6;
  };

  return {
    doc,
    /** The paper's name, large, and its facts (number, dates) under it. */
    heading(title: string, pairs: [string, string][]) {
      doc.font(BOLD).fontSize(24).text(title, left, MARGIN);
      doc.moveDown(0.5);
      facts(pairs);
    },
    /**
     * The seller or the buyer, across the page (side by side, half a page broke a long email
     * address in two): its heading, then its lines as one line each, the empty ones left out.
     */
    party(heading: string, lines: (string | null | undefined)[]) {
      doc
        .font(BOLD)
        .fontSize(11)
        .text(heading, left, doc.y + 18, { width: WIDTH });
      doc.font(REGULAR).fontSize(10);
      for (const line of lines) if (line) doc.text(printable(line), left, doc.y + 2, { width: WIDTH });
    },
    /** A paragraph across the page. */
    paragraph(value: string, gap = 0) {
      doc
        .font(REGULAR)
        .fontSize(10)
        .text(value, left, doc.y + gap, { width: WIDTH });
    },
    /**
     * The one line (product, unit price, quantity, line total) under its column heads, then the
     * amounts, each right-aligned with the line total (its cell's padding: 4 points), the last bold.
     */
    line(heads: Cells, values: Cells, amounts: { label: string; amount: string }[], gap: number) {
      y = doc.y + gap;
      cells(heads, BOLD);
      rule(1);
      cells(values, REGULAR);
      rule(0.5);
      y += 2;
      amounts.forEach(({ label, amount }, i) => {
        const last = i === amounts.length - 1;
        doc
          .font(last ? BOLD : REGULAR)
          .fontSize(last ? 12 : 10)
          .text(`${printable(label)}: ${amount}`, left, y + (last ? 4 : 0), {
            width: WIDTH - 4,
            align: "right",
          });
        y = doc.y + 2;
      });
    },
    /** A section of label and value pairs under its heading. */
    section(heading: string, pairs: [string, string][]) {
      doc.moveDown(2);
      doc.font(BOLD).fontSize(11).text(heading, left, doc.y, { width: WIDTH });
      facts(pairs, 2);
    },
    /** The small print at the foot, and the PDF's bytes. */
    end(footer: string): Promise<Buffer> {
      doc.moveDown(3);
      doc.font(REGULAR).fontSize(8).fillColor("#555555").text(footer, left, doc.y, { width: WIDTH });
      doc.end();
      return done;
    },
  };
}

/**
 * The seller as an invoice and a credit note print it: the shop's tax ID as its settings give it
 * (shopTaxId), else as configured (SELLER_TAX_ID).
 */
export function sellerLines(seller: Seller, shopTaxId: string): (string | undefined)[] {
  const taxId = shopTaxId.trim() || seller.taxId;
  return [
    seller.name,
    ...addressLines(seller.address ?? ""),
    seller.email,
    taxId ? paperMessages.taxId(taxId) : undefined,
  ];
}

/**
 * Draws the invoice (paper): its number and date, the seller and the buyer, the one line and the
 * amounts as booked (the discount and its code, the net, the tax at its rate, added or included,
 * and the total charged, net + tax), and how it was paid.
 */
export function renderInvoice(invoice: InvoiceData, seller: Seller): Promise<Buffer> {
  const number = invoiceNumber(invoice.number);
  const out = paper(seller, {
    title: `${text.title} ${number}`,
    subject: text.subject(number),
    issuedAt: invoice.issuedAt,
  });
  out.heading(text.title, [
    [text.number, number],
    // The order's own number, as its mails, My Orders and the payment page name it.
    [orderMessages.number, orderNumber(invoice.orderId)],
    [text.issued, day.format(invoice.issuedAt)],
  ]);
  out.party(text.seller, sellerLines(seller, invoice.sellerTaxId));
  const { buyer } = invoice;
  out.party(text.buyer, [
    buyer.name,
    buyer.companyName || undefined,
    buyer.companyTaxId ? text.taxId(buyer.companyTaxId) : undefined,
    buyer.email,
    ...addressLines(buyer.address),
    text.phone(buyer.phone),
  ]);
  out.line(
    text.columns,
    {
      product: printable(invoice.productName),
      unitPrice: formatAmount(invoice.unitPrice * 100),
      quantity: String(invoice.quantity),
      lineTotal: formatAmount(invoice.totalPrice * 100),
    },
    amountLines(invoice, { all: true }).map((l) => ({ label: l.label, amount: l.amount })),
    28,
  );
  const payment: [string, string][] = [[text.paidAt, moment.format(invoice.issuedAt)]];
  if (invoice.transactionId) payment.push([text.transactionId, printable(invoice.transactionId)]);
  out.section(text.payment, payment);
  return out.end(text.footer(invoice.orderId));
}
