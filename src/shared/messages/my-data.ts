/**
 * Download my data (issue 34, item 3): Profile's "Your data" card, the download's answers, and the
 * words inside the file (data.json's notes, orders.csv's header).
 */
import { countOf } from "./common.js";
import { pricingMessages } from "./pricing.js";

/** The amounts' and the company's columns, named as in the shop's orders export. */
const { companyName, companyTaxId, ...amountColumns } = pricingMessages.csv;

export const myDataMessages = {
  card: {
    heading: "Your data",
    lead: "Download everything the shop keeps about you as one ZIP file: your account and profile, your orders with their payments, refunds, invoice and credit note numbers, your reviews (hidden ones too), your back-in-stock subscriptions and the mails the shop sent you. The data is in data.json; your orders are also in orders.csv, for a spreadsheet.",
    download: "Download my data",
    /** Beside the link: the file's name, and that downloads are bounded (DATA_DOWNLOADS_PER_HOUR). */
    note: "The file is named gearhouse-data- and the day. You can download it a few times an hour.",
  },
  rateLimited: (max: number, seconds: number) => {
    const minutes = Math.max(1, Math.ceil(seconds / 60));
    return `You can download your data at most ${countOf(max, "time")} an hour. Please try again in ${countOf(minutes, "minute")}.`;
  },
  /** data.json's own explanations, beside the data. */
  file: {
    about:
      "Everything Gearhouse keeps about your account, as of exportedAt (UTC). Amounts ending in Cents are US cents; unitPrice and totalPrice are whole US dollars. Your orders are also in orders.csv.",
    mails: (days: number) =>
      `The mails the shop sent about your orders and back-in-stock subscriptions (receipts, reminders, shipping, refunds). A record of a mail is removed ${countOf(days, "day")} after it was sent, so older mails are not listed.`,
    reviews:
      "Your reviews, hidden ones too: a hidden review is not shown in the shop, and hiddenReason says why.",
  },
  /** orders.csv's header (its order: Object.values): the order's own columns, then its invoice and credit note. */
  csv: {
    id: "Order id",
    number: "Order number",
    placedAt: "Placed at (UTC)",
    status: "Status",
    product: "Product",
    quantity: "Quantity",
    unitPrice: "Unit price (USD)",
    total: "Total price (USD)",
    ...amountColumns,
    name: "Name",
    email: "Email",
    phone: "Phone",
    address: "Address",
    companyName,
    companyTaxId,
    transactionId: "Transaction id",
    paidAt: "Paid at (UTC)",
    shippedAt: "Shipped at (UTC)",
    carrier: "Carrier",
    trackingNumber: "Tracking number",
    refundedAt: "Refunded at (UTC)",
    expiredAt: "Expired at (UTC)",
    invoiceNumber: "Invoice number",
    creditNoteNumber: "Credit note number",
  },
} as const;
