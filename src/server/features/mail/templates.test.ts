import { describe, expect, it } from "vitest";
import { BRAND_NAME, MAIL_COLORS } from "../../../shared/brand.js";
import { trackingUrl } from "../../../shared/carriers.js";
import { orderNumber } from "../../../shared/format.js";
import { mailMessages } from "../../../shared/messages/mail.js";
import { mailPreferenceMessages } from "../../../shared/messages/mail-preferences.js";
import { pricingMessages } from "../../../shared/messages/pricing.js";
import { stockMessages } from "../../../shared/messages/stock.js";
import { MAIL_KINDS } from "../../db/schema/index.js";
import { mailOrder } from "../../test/mail-orders.js";
import { type MailOrder, type OrderMailKind, renderLowStockMail, renderMail } from "./templates.js";

const t = stockMessages.mail;

describe("the low-stock mail", () => {
  it("is drawn in the order mails' frame, with its own footer and no shop signature", async () => {
    const mail = await renderLowStockMail(
      { productId: "p-1", productName: "Gale 120 Fan", quantity: 3, threshold: 5, adminName: "Ada Admin" },
      "https://shop.example",
    );
    expect(mail.subject).toBe(t.subject("Gale 120 Fan"));
    // The order mails' frame: the shop's name as the h1, then the greeting.
    expect(mail.html).toMatch(/<h1[^>]*>Gearhouse<\/h1>/);
    expect(mail.text).toContain(mailMessages.greeting("Ada Admin"));
    expect(mail.text).toContain(t.body("Gale 120 Fan", 3, 5));
    expect(mail.html).toContain('href="https://shop.example/dashboard/stock/p-1"');
    expect(mail.text).toContain(t.footer);
    // An admin's notice, not a customer's mail: no thanks for shopping, no link to My Orders.
    expect(mail.text).not.toContain(mailMessages.signature);
    expect(mail.text).not.toContain(mailMessages.footer);
  });
});

describe("the order mails' amounts", () => {
  const PUBLIC_URL = "https://shop.example";
  const a = pricingMessages.amounts;
  const base = mailOrder({ name: "Ada Amounts", transactionId: "pi_amounts" });
  const priced: MailOrder = {
    ...base,
    discountCode: "SPRING10",
    discountCents: 3_700,
    netCents: 33_300,
    taxCents: 2_747,
    grossCents: 36_047,
    taxRateBp: 825,
    companyName: "Ωmega Parts GmbH",
    companyTaxId: "DE 123/456.789",
  };
  /** The mail's text from its unit price on, one line each. */
  const amountsOf = (text: string) => {
    const lines = text
      .split("\n")
      .map((l) => l.trim())
      .filter(Boolean);
    const from = lines.findIndex((l) => l.startsWith(`${mailMessages.order.unitPrice}:`));
    return lines.slice(from, from + 7);
  };

  it.each(["order_placed", "payment_receipt", "order_refunded"] as const)(
    "%s: the unit price, subtotal, discount with its code, net, tax at its rate, total and company",
    async (kind) => {
      const mail = await renderMail(kind, priced, PUBLIC_URL, "GH-000042");
      expect(amountsOf(mail.text)).toEqual([
        `${mailMessages.order.unitPrice}: $37.00`,
        `${a.subtotal}: $370.00`,
        `${a.discountCode("SPRING10")}: -$37.00`,
        `${a.net}: $333.00`,
        `${a.tax("8.25%")}: $27.47`,
        `${a.gross}: $360.47`,
        `${pricingMessages.company.heading}: Ωmega Parts GmbH, ${pricingMessages.company.taxIdLine("DE 123/456.789")}`,
      ]);
    },
  );

  it("says the tax a total includes, and the refund of what the card was charged", async () => {
    const included = { ...base, netCents: 30_833, taxCents: 6_167, taxRateBp: 2_000, pricesIncludeTax: true };
    const mail = await renderMail("order_refunded", included, PUBLIC_URL);
    expect(mail.text).toContain(mailMessages.refunded.lead("$370.00"));
    expect(amountsOf(mail.text).slice(1, 4)).toEqual([
      `${a.net}: $308.33`,
      `${a.taxIncluded("20%")}: $61.67`,
      `${a.gross}: $370.00`,
    ]);
    const discounted = await renderMail("order_refunded", priced, PUBLIC_URL);
    expect(discounted.text).toContain(mailMessages.refunded.lead("$360.47"));
  });

  it("is the total alone for an order with neither discount nor tax, and no company line without one", async () => {
    const mail = await renderMail("order_placed", base, PUBLIC_URL);
    const lines = amountsOf(mail.text);
    expect(lines.slice(0, 2)).toEqual([`${mailMessages.order.unitPrice}: $37.00`, `${a.gross}: $370.00`]);
    for (const label of [a.subtotal, a.net, a.tax("0%"), `${pricingMessages.company.heading}:`])
      expect(mail.text).not.toContain(label);
  });
});

describe("the mails' look: the shop's own name and colours", () => {
  const PUBLIC_URL = "https://shop.example";
  const order = mailOrder({
    name: "Ada Look",
    transactionId: "pi_look",
    carrier: "UPS",
    trackingNumber: "1Z999AA1",
  });
  /** Every mail that tells of an order or a product to a customer: all but the admin's low-stock notice. */
  const KINDS = MAIL_KINDS.filter((kind): kind is OrderMailKind => kind !== "low_stock");
  /** The purple the mails wore before (Tailwind's violet-600), on a cyan site. */
  const PURPLE = /#7c3aed|violet|purple/i;

  it.each(KINDS)("%s: the shop's name on its dark band, its cyan, and no purple", async (kind) => {
    const mail = await renderMail(kind, order, PUBLIC_URL, undefined, {
      unsubscribe: `${PUBLIC_URL}/stock-notices/unsubscribe?id=n&token=t`,
    });
    const html = mail.html.toLowerCase();
    expect(mail.html).toMatch(
      new RegExp(`<h1[^>]*color:${MAIL_COLORS.bandText}[^>]*>${BRAND_NAME}</h1>`, "i"),
    );
    expect(html).toContain(`background-color:${MAIL_COLORS.band}`);
    expect(html).toContain(`color:${MAIL_COLORS.link}`);
    expect(mail.html).not.toMatch(PURPLE);
  });

  it("the low-stock mail wears them too (the account mails: accounts/account-mails.test.ts)", async () => {
    const lowStock = await renderLowStockMail(
      { productId: "p-1", productName: "Gale 120 Fan", quantity: 3, threshold: 5, adminName: "Ada Admin" },
      PUBLIC_URL,
    );
    for (const html of [lowStock.html]) {
      expect(html).toMatch(new RegExp(`<h1[^>]*color:${MAIL_COLORS.bandText}[^>]*>${BRAND_NAME}</h1>`, "i"));
      expect(html.toLowerCase()).toContain(`background-color:${MAIL_COLORS.band}`);
      expect(html).not.toMatch(PURPLE);
    }
  });

  it("links the tracking number to a known carrier's page, and shows it as text otherwise", async () => {
    const known = await renderMail("order_shipped", order, PUBLIC_URL);
    const url = trackingUrl("UPS", "1Z999AA1") ?? "";
    expect(known.html).toMatch(new RegExp(`<a href="${url.replace(/[.?]/g, "\\$&")}"[^>]*>1Z999AA1</a>`));
    const unknown = await renderMail("order_shipped", { ...order, carrier: "Bob's Couriers" }, PUBLIC_URL);
    expect(unknown.html).not.toContain('<a href="https://www.ups.com');
    expect(unknown.text).toContain(mailMessages.shipped.tracking("1Z999AA1"));
  });

  it("puts the reminder switch's link in the footer of the mails given one (the optional ones)", async () => {
    const page = `${PUBLIC_URL}/unsubscribe?token=abc`;
    const reminder = await renderMail("payment_reminder", order, PUBLIC_URL, undefined, { reminders: page });
    expect(reminder.html).toContain(`href="${page}"`);
    expect(reminder.text).toContain(mailPreferenceMessages.footer);
    const receipt = await renderMail("payment_receipt", order, PUBLIC_URL);
    expect(receipt.text).not.toContain(mailPreferenceMessages.footer);
  });
});

describe("the order mails' number", () => {
  const order = mailOrder({
    id: "1a2b3c4d-1111-4222-8333-444455556666",
    name: "Nora Number",
    email: "nora@example.com",
    transactionId: "pi_number",
  });
  /** The mails of an order: all but the admin's low-stock notice and the back-in-stock notice. */
  const kinds = MAIL_KINDS.filter(
    (kind): kind is OrderMailKind => kind !== "low_stock" && kind !== "back_in_stock",
  );

  it.each(kinds)("%s names the order by its own number in its subject and its body", async (kind) => {
    // The number My Orders, Manage Orders, the payment page and the invoice show (shared/format.ts).
    const number = orderNumber(order.id);
    expect(number).toBe("#1A2B3C4D");
    const mail = await renderMail(kind, order, "https://shop.example");
    expect(mail.subject).toContain(number);
    // The plain text writes headings in capitals; the HTML as written.
    expect(mail.html).toContain(mailMessages.order.number(number));
    expect(mail.text).toContain(number);
  });
});
