// The order mails, as React Email components: one HTML body and its plain-text form from the same
// tree, inline styles only (mail clients drop style sheets), no images (each mail reads the same
// with images blocked), and every link absolute, to PUBLIC_URL.

import { Body } from "@react-email/body";
import { Button } from "@react-email/button";
import { Container } from "@react-email/container";
import { Head } from "@react-email/head";
import { Heading } from "@react-email/heading";
import { Hr } from "@react-email/hr";
import { Html } from "@react-email/html";
import { Link } from "@react-email/link";
import { Preview } from "@react-email/preview";
import { render, toPlainText } from "@react-email/render";
import { Section } from "@react-email/section";
import { Text } from "@react-email/text";
import { Fragment, type ReactNode } from "react";
import { BRAND_NAME, MAIL_COLORS } from "../../../shared/brand.js";
import { trackingUrl } from "../../../shared/carriers.js";
import { orderNumber } from "../../../shared/format.js";
import { mailMessages as m } from "../../../shared/messages/mail.js";
import { mailPreferenceMessages } from "../../../shared/messages/mail-preferences.js";
import { pricingMessages } from "../../../shared/messages/pricing.js";
import { stockMessages } from "../../../shared/messages/stock.js";
import { amountLines, companyLines, type OrderAmounts } from "../../../shared/order-amounts.js";
import { formatCents } from "../../../shared/pricing.js";
import type { MailKind } from "../../db/schema/index.js";

/**
 * What a mail says of its order (read when the mail is sent: outbox.ts): its amounts as booked
 * (net + tax = gross, the amount charged) and the buyer's company, when given.
 */
export interface MailOrder extends OrderAmounts {
  id: string;
  productId: string | null;
  productName: string;
  name: string;
  email: string;
  quantity: number;
  unitPrice: number;
  companyName: string | null;
  companyTaxId: string | null;
  expiresAt: Date | null;
  paidAt: Date | null;
  transactionId: string | null;
  carrier: string | null;
  trackingNumber: string | null;
}

/** Links a mail carries besides the shop's own: signed links to stop it. */
export interface MailLinks {
  /** A back-in-stock mail's link that ends its subscription. */
  unsubscribe?: string;
  /** An optional mail's link to the page that turns the account's reminder mails off (features/mail-preferences). */
  reminders?: string;
}

export interface RenderedMail {
  subject: string;
  html: string;
  text: string;
}

/** An order's reference in mails: its number, as Manage Orders shows it (src/shared/orders.ts). */
export const orderReference = orderNumber;

/** "Nov 24, 2026, 14:05" in UTC: a mail is read in any time zone, so it says which. */
const when = (at: Date) =>
  at.toLocaleString("en-US", {
    timeZone: "UTC",
    month: "short",
    day: "numeric",
    year: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  });

/** The shop's colours (shared/brand.ts, from the site's theme): its dark band and cyan around a white page. */
const colors = MAIL_COLORS;
const paragraph = { color: colors.text, fontSize: "15px", lineHeight: "22px" };
const link = { color: colors.link, textDecoration: "underline" };

function Layout(props: {
  preview: string;
  name: string;
  publicUrl: string;
  children: ReactNode;
  /** The footer of a mail that is not about an order (a back-in-stock mail's, the low-stock mail's). */
  footer?: ReactNode;
  /** The shop's signature under the body; the admins' low-stock mail goes without. */
  signed?: boolean;
  /** An optional mail's link that turns reminder mails off, shown under the footer. */
  reminders?: string;
}) {
  return (
    <Html lang="en">
      <Head />
      <Preview>{props.preview}</Preview>
      <Body style={{ backgroundColor: colors.page, fontFamily: "Helvetica, Arial, sans-serif", margin: 0 }}>
        <Container style={{ backgroundColor: colors.paper, maxWidth: "560px" }}>
          <Section style={{ backgroundColor: colors.band, padding: "16px 24px" }}>
            <Heading as="h1" style={{ color: colors.bandText, fontSize: "22px", margin: 0 }}>
              {BRAND_NAME}
            </Heading>
          </Section>
          <Section style={{ padding: "8px 24px 24px" }}>
            <Text style={paragraph}>{m.greeting(props.name)}</Text>
            {props.children}
            {props.signed === false ? null : <Text style={paragraph}>{m.signature}</Text>}
            <Hr style={{ borderColor: colors.line }} />
            <Text style={{ color: colors.muted, fontSize: "13px" }}>
              {props.footer ?? (
                <>
                  {m.footer}{" "}
                  <Link href={`${props.publicUrl}/dashboard`} style={link}>
                    {m.myOrders}
                  </Link>
                </>
              )}
            </Text>
            {props.reminders ? (
              <Text style={{ color: colors.muted, fontSize: "13px" }}>
                {mailPreferenceMessages.footer}{" "}
                <Link href={props.reminders} style={link}>
                  {mailPreferenceMessages.footerLink}
                </Link>
              </Text>
            ) : null}
          </Section>
        </Container>
      </Body>
    </Html>
  );
}

/**
 * The order's number, product, quantity and unit price, then its amounts (shared/order-amounts.ts:
 * the subtotal and the discount with its code, the net and the tax at its rate when there are
 * any, and the total charged), then the buyer's company when given.
 */
function OrderLines({ order }: { order: MailOrder }) {
  const line = (label: string, value: string, bold = false) => (
    <Text style={{ ...paragraph, margin: "2px 0", ...(bold ? { fontWeight: 700 } : {}) }}>
      {label}: {value}
    </Text>
  );
  const company = companyLines(order);
  return (
    <Section style={{ border: `1px solid ${colors.line}`, borderRadius: "6px", padding: "8px 16px" }}>
      <Heading as="h2" style={{ color: colors.text, fontSize: "16px" }}>
        {m.order.number(orderReference(order.id))}
      </Heading>
      {line(m.order.product, order.productName)}
      {line(m.order.quantity, order.quantity.toLocaleString("en-US"))}
      {line(m.order.unitPrice, formatCents(order.unitPrice * 100))}
      {amountLines(order).map((amount) => (
        <Fragment key={amount.key}>{line(amount.label, amount.amount, amount.key === "gross")}</Fragment>
      ))}
      {company.length > 0 && line(pricingMessages.company.heading, company.join(", "))}
    </Section>
  );
}

/** The tracking number, a link to the carrier's tracking page when the carrier is known (shared/carriers.ts). */
function Tracking({ carrier, number }: { carrier: string | null; number: string }) {
  const url = trackingUrl(carrier, number);
  if (!url) return <Text style={paragraph}>{m.shipped.tracking(number)}</Text>;
  return (
    <Text style={paragraph}>
      {m.shipped.trackingLabel}{" "}
      <Link href={url} style={link}>
        {number}
      </Link>
    </Text>
  );
}

function Action({ href, children }: { href: string; children: string }) {
  return (
    <Section style={{ margin: "20px 0" }}>
      <Button
        href={href}
        style={{
          backgroundColor: colors.button,
          borderRadius: "6px",
          color: colors.buttonText,
          fontWeight: 700,
          padding: "12px 20px",
        }}
      >
        {children}
      </Button>
    </Section>
  );
}

interface Parts {
  subject: string;
  preview: string;
  body: ReactNode;
  footer?: ReactNode;
}

/** The mails about an order, and back_in_stock told like one (low_stock is about a product: renderLowStockMail). */
export type OrderMailKind = Exclude<MailKind, "low_stock">;

function parts(
  kind: OrderMailKind,
  order: MailOrder,
  publicUrl: string,
  invoiceNumber?: string,
  links?: MailLinks,
): Parts {
  const pay = `${publicUrl}/dashboard/payment/${order.id}`;
  /** Every order mail: its subject and preview, its lead, the order's lines, then what is its own. */
  const mail = (
    texts: { subject(product: string, number: string): string; preview: string },
    lead: string,
    own?: ReactNode,
  ) => ({
    // The order's number, as its lines below, My Orders and its invoice name it.
    subject: texts.subject(order.productName, orderReference(order.id)),
    preview: texts.preview,
    body: (
      <>
        <Text style={paragraph}>{lead}</Text>
        <OrderLines order={order} />
        {own}
      </>
    ),
  });
  switch (kind) {
    case "order_placed":
    case "payment_reminder": {
      const t = kind === "order_placed" ? m.placed : m.reminder;
      return mail(
        t,
        t.lead,
        <>
          {order.expiresAt && <Text style={paragraph}>{t.deadline(when(order.expiresAt))}</Text>}
          <Action href={pay}>{t.pay}</Action>
        </>,
      );
    }
    case "payment_receipt":
      return mail(
        m.receipt,
        m.receipt.lead,
        <>
          {order.paidAt && <Text style={paragraph}>{m.receipt.paidAt(when(order.paidAt))}</Text>}
          {order.transactionId && <Text style={paragraph}>{m.receipt.transaction(order.transactionId)}</Text>}
          <Text style={paragraph}>
            {invoiceNumber ? m.receipt.invoice(invoiceNumber) : m.receipt.noInvoice}
          </Text>
        </>,
      );
    case "order_shipped":
      return mail(
        m.shipped,
        m.shipped.lead,
        <>
          {order.carrier && <Text style={paragraph}>{m.shipped.carrier(order.carrier)}</Text>}
          {order.trackingNumber && <Tracking carrier={order.carrier} number={order.trackingNumber} />}
          {!order.carrier && !order.trackingNumber && <Text style={paragraph}>{m.shipped.noTracking}</Text>}
        </>,
      );
    case "order_refunded":
      // The card is refunded what it was charged: the order's gross.
      return mail(
        m.refunded,
        m.refunded.lead(formatCents(order.grossCents)),
        invoiceNumber ? <Text style={paragraph}>{m.refunded.creditNote(invoiceNumber)}</Text> : null,
      );
    case "order_expired":
      return mail(
        m.expired,
        m.expired.lead,
        order.productId && <Action href={`${publicUrl}/tool/${order.productId}`}>{m.expired.again}</Action>,
      );
    case "back_in_stock": {
      // `order` is the subscription (outbox.ts): its product, and the stock as the mail is sent.
      const t = m.backInStock;
      return {
        subject: t.subject(order.productName),
        preview: t.preview,
        body: (
          <>
            <Text style={paragraph}>{t.lead(order.productName)}</Text>
            <Text style={paragraph}>{t.stock(order.quantity)}</Text>
            <Action href={`${publicUrl}/tool/${order.productId}`}>{t.view}</Action>
          </>
        ),
        footer: (
          <>
            {t.footer}{" "}
            {links?.unsubscribe && (
              <Link href={links.unsubscribe} style={link}>
                {t.unsubscribe}
              </Link>
            )}
          </>
        ),
      };
    }
  }
}

export type RenderMail = typeof renderMail;

/**
 * The mail of `kind` about `order`, as HTML and as plain text. `invoiceNumber`: the number of the
 * paper attached, when there is one (the receipt's invoice, the refund mail's credit note);
 * `links`: a back-in-stock mail's unsubscribe link.
 */
export async function renderMail(
  kind: OrderMailKind,
  order: MailOrder,
  publicUrl: string,
  invoiceNumber?: string,
  links?: MailLinks,
): Promise<RenderedMail> {
  const { subject, preview, body, footer } = parts(kind, order, publicUrl, invoiceNumber, links);
  const element = (
    <Layout
      preview={preview}
      name={order.name}
      publicUrl={publicUrl}
      footer={footer}
      reminders={links?.reminders}
    >
      {body}
    </Layout>
  );
  // Rendered once: the plain text is read from the HTML (what the plainText option would render again).
  const html = await render(element);
  return { subject, html, text: toPlainText(html) };
}

/** What the low-stock mail says of its product (read when the mail is sent). */
export interface MailLowStock {
  productId: string;
  productName: string;
  quantity: number;
  threshold: number;
  adminName: string;
}

/**
 * The admins' low-stock mail (features/stock): the product, its stock and its threshold, and a
 * link to the product's stock in the admin area. Rare (once per crossing), so it is rendered where
 * it is sent.
 */
export async function renderLowStockMail(product: MailLowStock, publicUrl: string): Promise<RenderedMail> {
  const t = stockMessages.mail;
  const preview = t.preview(product.productName, product.quantity);
  const element = (
    <Layout preview={preview} name={product.adminName} publicUrl={publicUrl} footer={t.footer} signed={false}>
      <Heading as="h2" style={{ color: colors.text, fontSize: "16px" }}>
        {t.heading}
      </Heading>
      <Text style={paragraph}>{t.body(product.productName, product.quantity, product.threshold)}</Text>
      <Action href={`${publicUrl}/dashboard/stock/${product.productId}`}>{t.action}</Action>
    </Layout>
  );
  const html = await render(element);
  return { subject: t.subject(product.productName), html, text: toPlainText(html) };
}
