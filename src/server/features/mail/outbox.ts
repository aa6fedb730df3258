import { randomUUID } from "node:crypto";
import { and, eq, isNull, sql } from "drizzle-orm";
import type { PgUpdateSetSource } from "drizzle-orm/pg-core";
import type { FastifyBaseLogger } from "fastify";
import type { Db } from "../../db/client.js";
import {
  type MailKind,
  mailOutbox,
  orderAmountColumns,
  orders,
  products,
  stockNotices,
  stockSetting,
  users,
} from "../../db/schema/index.js";
import { claimRecipient, releaseRecipient } from "../../lib/mail-cap.js";
import type { Mailer } from "../../lib/mailer.js";
import { type PeriodicJob, startPeriodicJob } from "../../lib/periodic.js";
import { inSpan } from "../../lib/tracing.js";
import type { MailLinks, MailOrder, RenderMail } from "./templates.js";

/**
 * The order mails' outbox. Triggers on "order" (migration 0012) write a row per order and kind in
 * the transaction of the change, and enqueueReminders adds the payment reminders, so a mail is
 * never lost with a change that committed, and never sent for one that rolled back. The shop sends
 * them itself: each instance, every MAIL_OUTBOX_INTERVAL_SECONDS, takes the due rows one at a time,
 * renders the mail from the order as it is then, hands it to the mailer and marks it sent. A
 * failure (the mail server away) leaves it due again after a backoff; after MAIL_MAX_ATTEMPTS it is
 * given up.
 *
 * No transaction is open while the mail server answers (one that stalls would otherwise hold a
 * connection of the pool per mail, and a few stalled mails would starve every request): a sender
 * claims a row with a lease in one short statement (FOR UPDATE SKIP LOCKED: senders never take the
 * same row; its lease_id set and its due_at moved to the lease's end, LEASE_SECONDS on), renders and
 * sends it holding no connection, then marks it sent in a second statement that counts only while
 * the lease is still its own. A sender that dies leaves the row due again when its lease ends.
 *
 * Once: a row is sent by the holder of its lease only, and a sent row is never claimed again. The
 * one gap is a sender that dies (or whose lease ends) after the mail server took the mail and before
 * it marked the row: the row is then sent again, with the same Message-ID (mail-<row id>@<PUBLIC_URL's
 * host>), which mail clients show as one message. The mailer's timeouts (lib/mailer.ts) end an
 * exchange well within a lease, so a live sender keeps its lease.
 *
 * Who gets them (issue 28): only an address its account has verified (user.email_verified), checked
 * here when the mail is sent, whatever booking checked before: a mail for any other is dropped with
 * the reason. And at most MAIL_LIMIT_PER_RECIPIENT_PER_HOUR mails an hour reach one address, counted
 * with every other mail of the shop (lib/mail-cap.ts). Over that cap, a paid order's receipt still
 * goes (it is the customer's proof of payment); word of a shipment or a refund waits for the hour to
 * end (no one can cause those without paying, so they are few, and each is worth having); a booking
 * mail, a payment reminder or an expiry notice is dropped (they are what a flood of bookings makes,
 * and My Orders says the same).
 *
 * Optional mails (issue 34): the payment reminder and the back-in-stock mail (OPTIONAL_MAILS) go only
 * to an account whose reminder mails are on (user.reminder_mails, Profile's Mails card or the
 * one-click unsubscribe), read when the mail is sent, in the query that reads the order, so a switch
 * turned off after the mail was queued still stops it: it is dropped with the reason. They carry
 * List-Unsubscribe and List-Unsubscribe-Post (RFC 8058) and a footer link to the same switch. The
 * booking mail, the receipt, shipping, refund and expiry mails always go: each tells of a change to
 * an order the customer made (the expiry notice says the booking is gone and nothing will be charged).
 */

/** How long a claimed mail is its sender's: well over the mailer's timeouts and the render's limit. */
export const LEASE_SECONDS = 10 * 60;

/**
 * Hands a mail its paper, when the order has one (features/invoices): the receipt its invoice, the
 * refund mail its credit note.
 */
export type InvoiceAttachment = (
  orderId: string,
) => Promise<{ number: string; filename: string; pdf: Buffer } | undefined>;

export interface OutboxOptions {
  db: Db;
  mailer: Mailer;
  publicUrl: string;
  maxAttempts: number;
  invoiceFor?: InvoiceAttachment;
  /** The refund mail's credit note (features/invoices, credit-note.ts). */
  creditNoteFor?: InvoiceAttachment;
  log?: Pick<FastifyBaseLogger, "warn" | "error">;
  /** Renders each mail: the server's render thread (render-thread.ts); by default this thread. */
  render?: RenderMail;
  /** Mails one address may receive an hour, every kind counted (MAIL_LIMIT_PER_RECIPIENT_PER_HOUR); unset for no cap. */
  perRecipientPerHour?: number;
  /** The signed unsubscribe link of a back-in-stock mail (features/stock-notices); none without it. */
  unsubscribeUrl?: (noticeId: string) => string;
  /** How long a claimed row stays its sender's (LEASE_SECONDS). */
  leaseSeconds?: number;
  /**
   * An account's signed links that turn its reminder mails off (features/mail-preferences): the
   * one-click address (List-Unsubscribe) and the page a person opens (the footer's link). Without
   * it the optional mails go without them.
   */
  reminderLinks?: (userId: string) => { oneClick: string; page: string };
}

/** The mails a customer can turn off (user.reminder_mails); every other kind always goes. */
const OPTIONAL_MAILS: ReadonlySet<MailKind> = new Set(["payment_reminder", "back_in_stock"]);

/** Renders in the calling thread, loading React only when a mail is rendered here. */
const renderHere: RenderMail = async (...args) => (await import("./templates.js")).renderMail(...args);

/** How long a failed mail waits before its next try: 30 s, doubling, at most 6 hours. */
export function backoffSeconds(attempts: number): number {
  return Math.min(30 * 2 ** Math.max(0, attempts - 1), 6 * 3600);
}

const mailOrderColumns = {
  id: orders.id,
  status: orders.status,
  productId: orders.productId,
  productName: orders.productName,
  name: orders.name,
  email: orders.email,
  quantity: orders.quantity,
  unitPrice: orders.unitPrice,
  ...orderAmountColumns,
  companyName: orders.companyName,
  companyTaxId: orders.companyTaxId,
  expiresAt: orders.expiresAt,
  paidAt: orders.paidAt,
  transactionId: orders.transactionId,
  carrier: orders.carrier,
  trackingNumber: orders.trackingNumber,
};

/** The reasons a mail is dropped without being sent, kept in its row's last_error. */
export const DROPPED = {
  removed: "the order was removed",
  unsubscribed: "the back-in-stock subscription was unsubscribed",
  notVerified: "the address is not verified",
  overCap: "its recipient's hourly mail cap was reached",
  settled: (status: string) => `the order is ${status} already`,
  notAdmin: "its recipient is no longer an admin",
  productRemoved: "the product was removed",
  archived: "the product was archived",
  remindersOff: "its recipient turned reminder mails off",
};

/** What happens to a mail over its recipient's cap (see the module's comment). */
const OVER_CAP: Record<MailKind, "send" | "wait" | "drop"> = {
  payment_receipt: "send",
  order_shipped: "wait",
  order_refunded: "wait",
  order_placed: "drop",
  payment_reminder: "drop",
  order_expired: "drop",
  // Once per crossing, and worth having: it waits for the admin's hour to end.
  low_stock: "wait",
  // Asked for, and one per subscription: it waits rather than be lost.
  back_in_stock: "wait",
};

type Outcome = "sent" | "failed" | "dropped" | "waiting" | "none";

type Claimed = {
  id: number;
  kind: MailKind;
  order_id: string | null;
  product_id: string | null;
  recipient_id: string | null;
  attempts: number;
  /** The trace of the transaction that queued it (lib/tracing.ts), when the shop records traces. */
  trace_parent: string | null;
};

/**
 * Claims the next due mail for `leaseSeconds`, in one statement (its own short transaction), and
 * counts the try. Undefined when none is due.
 */
async function claimNext(db: Db, lease: string, leaseSeconds: number): Promise<Claimed | undefined> {
  const claimed = await db.execute<Claimed>(sql`
    update ${mailOutbox} m
    set lease_id = ${lease}, due_at = now() + make_interval(secs => ${leaseSeconds}), attempts = m.attempts + 1
    from (
      select id from ${mailOutbox}
      where sent_at is null and dropped_at is null and due_at <= now()
      order by due_at, id
      limit 1
      for update skip locked
    ) due
    where m.id = due.id
    returning m.id, m.kind, m.order_id, m.product_id, m.recipient_id, m.attempts, m.trace_parent`);
  return claimed.rows[0];
}

type Found = { order: MailOrder; links?: MailLinks; headers?: Record<string, string> } | { dropped: string };

/**
 * What an optional mail to `userId` carries: the one-click unsubscribe headers (RFC 8058; the POST
 * form's body is what RFC 8058 asks for) and the footer's link to the page. Nothing for other kinds.
 */
function optionalParts(
  options: OutboxOptions,
  kind: MailKind,
  userId: string,
): { links?: MailLinks; headers?: Record<string, string> } {
  if (!OPTIONAL_MAILS.has(kind) || !options.reminderLinks) return {};
  const { oneClick, page } = options.reminderLinks(userId);
  return {
    links: { reminders: page },
    headers: { "List-Unsubscribe": `<${oneClick}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" },
  };
}

/** An order mail's order, or why it is dropped. */
async function orderMail(options: OutboxOptions, kind: MailKind, orderId: string): Promise<Found> {
  const [order] = await options.db
    .select({
      ...mailOrderColumns,
      verified: users.emailVerified,
      accountEmail: users.email,
      userId: users.id,
      reminderMails: users.reminderMails,
    })
    .from(orders)
    .leftJoin(users, eq(users.id, orders.userId))
    .where(eq(orders.id, orderId));
  // Removed before its mail went out: there is nothing left to tell of.
  if (!order) return { dropped: DROPPED.removed };
  // Paid (or expired) before its booking mail or reminder went out: asking to pay would mislead.
  if ((kind === "order_placed" || kind === "payment_reminder") && order.status !== "pending")
    return { dropped: DROPPED.settled(order.status) };
  // Only to an address its account has verified (an order whose account was removed has none left
  // to vouch for it): the account's address now, which after a change of email (features/accounts,
  // email-change.ts) is no longer the one the order keeps as booked, for its invoice.
  if (!order.verified || !order.accountEmail) return { dropped: DROPPED.notVerified };
  if (OPTIONAL_MAILS.has(kind) && order.reminderMails === false) return { dropped: DROPPED.remindersOff };
  return {
    order: { ...order, email: order.accountEmail },
    ...(order.userId ? optionalParts(options, kind, order.userId) : {}),
  };
}

/**
 * A back-in-stock mail (features/stock-notices): its subscription's customer and product, told as
 * the order mails are (the product's name and id, the customer's name and address), with the
 * signed unsubscribe link. Dropped when the subscription was unsubscribed meanwhile, the product
 * archived, or the customer's address is not verified.
 */
async function noticeMail(options: OutboxOptions, noticeId: string): Promise<Found> {
  const [notice] = await options.db
    .select({
      productId: stockNotices.productId,
      productName: products.name,
      stock: products.quantity,
      archivedAt: products.archivedAt,
      name: users.name,
      email: users.email,
      verified: users.emailVerified,
      userId: users.id,
      reminderMails: users.reminderMails,
    })
    .from(stockNotices)
    .innerJoin(products, eq(products.id, stockNotices.productId))
    .innerJoin(users, eq(users.id, stockNotices.userId))
    .where(eq(stockNotices.id, noticeId));
  if (!notice) return { dropped: DROPPED.unsubscribed };
  // Archived after the mail was queued: it is no longer sold, so it is not back.
  if (notice.archivedAt) return { dropped: DROPPED.archived };
  if (!notice.verified) return { dropped: DROPPED.notVerified };
  if (!notice.reminderMails) return { dropped: DROPPED.remindersOff };
  const order: MailOrder = {
    id: noticeId,
    productId: notice.productId,
    productName: notice.productName,
    name: notice.name,
    email: notice.email,
    quantity: notice.stock,
    unitPrice: 0,
    totalPrice: 0,
    discountCode: null,
    discountCents: 0,
    netCents: 0,
    taxCents: 0,
    grossCents: 0,
    taxRateBp: 0,
    pricesIncludeTax: false,
    companyName: null,
    companyTaxId: null,
    expiresAt: null,
    paidAt: null,
    transactionId: null,
    carrier: null,
    trackingNumber: null,
  };
  const optional = optionalParts(options, "back_in_stock", notice.userId);
  const links: MailLinks = {
    ...optional.links,
    ...(options.unsubscribeUrl ? { unsubscribe: options.unsubscribeUrl(noticeId) } : {}),
  };
  return { order, links, headers: optional.headers };
}

/** Takes one due mail, if any, and sends it (see the module's comment). */
async function sendOne(options: OutboxOptions): Promise<Outcome> {
  const lease = randomUUID();
  const row = await claimNext(options.db, lease, options.leaseSeconds ?? LEASE_SECONDS);
  if (!row) return "none";
  // A span of the trace that queued the mail, when the shop records traces.
  return inSpan(
    "mail send",
    { "gearhouse.mail.id": row.id, "gearhouse.mail.kind": row.kind },
    () => sendClaimed(options, row, lease),
    row.trace_parent,
  );
}

/** Sends a mail this sender has claimed under `lease`, and settles its row. */
async function sendClaimed(options: OutboxOptions, row: Claimed, lease: string): Promise<Outcome> {
  const { db, publicUrl } = options;
  /** Ends the lease with `changes`, if it is still this sender's; says whether it was. */
  const settle = async (changes: PgUpdateSetSource<typeof mailOutbox>): Promise<boolean> => {
    const done = await db
      .update(mailOutbox)
      .set({ ...changes, leaseId: null })
      .where(
        and(
          eq(mailOutbox.id, row.id),
          eq(mailOutbox.leaseId, lease),
          isNull(mailOutbox.sentAt),
          isNull(mailOutbox.droppedAt),
        ),
      )
      .returning({ id: mailOutbox.id });
    return done.length > 0;
  };
  const drop = async (reason: string): Promise<Outcome> => {
    await settle({ droppedAt: sql`now()`, lastError: reason });
    return "dropped";
  };

  const kind = row.kind;
  if (kind === "low_stock") return sendLowStock(options, row, settle, drop);
  const found: Found = !row.order_id
    ? { dropped: DROPPED.removed }
    : kind === "back_in_stock"
      ? await noticeMail(options, row.order_id)
      : await orderMail(options, kind, row.order_id);
  if ("dropped" in found) return drop(found.dropped);
  const { order, links, headers } = found;
  return deliver(options, row, settle, drop, order.email, "order mail", async () => {
    // The receipt attaches the invoice, the refund mail the credit note; the mail names it.
    const paper =
      kind === "payment_receipt"
        ? await options.invoiceFor?.(order.id)
        : kind === "order_refunded"
          ? await options.creditNoteFor?.(order.id)
          : undefined;
    const mail = await (options.render ?? renderHere)(kind, order, publicUrl, paper?.number, links);
    return {
      ...mail,
      headers,
      attachments: paper
        ? [{ filename: paper.filename, content: paper.pdf, contentType: "application/pdf" }]
        : undefined,
    };
  });
}

/**
 * Sends the mail `compose` makes to `to`, under the recipient's hourly cap (OVER_CAP says what an
 * over-cap mail does), and settles the row: sent, to be tried again after a backoff, or given up
 * after maxAttempts. The same for every kind of mail.
 */
async function deliver(
  options: OutboxOptions,
  row: Claimed,
  settle: (changes: PgUpdateSetSource<typeof mailOutbox>) => Promise<boolean>,
  drop: (reason: string) => Promise<Outcome>,
  to: string,
  what: "order mail" | "low-stock mail",
  compose: () => Promise<Omit<Parameters<Mailer["send"]>[0], "to" | "messageId">>,
): Promise<Outcome> {
  const { db, mailer, publicUrl, maxAttempts } = options;
  const capped = options.perRecipientPerHour !== undefined;
  if (capped) {
    const rule = OVER_CAP[row.kind];
    const claim = await claimRecipient(db, to, options.perRecipientPerHour ?? 0, { always: rule === "send" });
    if (!claim.allowed && rule === "drop") return drop(DROPPED.overCap);
    if (!claim.allowed) {
      // Not a try: it waits for the recipient's hour to end, as often as it takes.
      await settle({
        attempts: row.attempts - 1,
        lastError: DROPPED.overCap,
        dueAt: sql`now() + make_interval(secs => ${claim.retryAfterSeconds})`,
      });
      return "waiting";
    }
  }
  try {
    const mail = await compose();
    await mailer.send({ to, ...mail, messageId: `<mail-${row.id}@${new URL(publicUrl).hostname}>` });
  } catch (error) {
    if (capped) await releaseRecipient(db, to).catch(() => {});
    const message = error instanceof Error ? error.message : String(error);
    const givenUp = row.attempts >= maxAttempts;
    await settle({
      lastError: message.slice(0, 500),
      dueAt: sql`now() + make_interval(secs => ${backoffSeconds(row.attempts)})`,
      droppedAt: givenUp ? sql`now()` : null,
    });
    options.log?.[givenUp ? "error" : "warn"](
      { err: error, mail: row.id, kind: row.kind, attempts: row.attempts },
      givenUp ? `${what} given up` : `${what} failed, to be tried again`,
    );
    return givenUp ? "dropped" : "failed";
  }
  if (!(await settle({ sentAt: sql`now()`, lastError: null }))) {
    // The lease ended while the mail server took it (a stall longer than every timeout): another
    // sender may send it again, with the same Message-ID.
    options.log?.warn(
      { mail: row.id, kind: row.kind },
      `${what} sent after its lease ended: it may go twice (same Message-ID)`,
    );
  }
  return "sent";
}

/**
 * A low-stock mail (features/stock; queued by the ledger's trigger, one row per admin at the
 * crossing): to its admin if the account is still an admin with a verified address, about the
 * product as it is now, under the same cap and lease as the order mails. A product removed since,
 * or an admin no longer, drops it.
 */
async function sendLowStock(
  options: OutboxOptions,
  row: Claimed,
  settle: (changes: PgUpdateSetSource<typeof mailOutbox>) => Promise<boolean>,
  drop: (reason: string) => Promise<Outcome>,
): Promise<Outcome> {
  const { db } = options;
  const [admin] = row.recipient_id
    ? await db
        .select({ name: users.name, email: users.email, verified: users.emailVerified, role: users.role })
        .from(users)
        .where(eq(users.id, row.recipient_id))
    : [];
  if (admin?.role !== "admin") return drop(DROPPED.notAdmin);
  if (!admin.verified) return drop(DROPPED.notVerified);
  const [product] = row.product_id
    ? await db
        .select({
          productId: products.id,
          productName: products.name,
          quantity: products.quantity,
          threshold: sql<number>`coalesce(${products.lowStockThreshold}, (select ${stockSetting.lowStockDefault} from ${stockSetting} where ${stockSetting.id}))`,
        })
        .from(products)
        .where(eq(products.id, row.product_id))
    : [];
  if (!product) return drop(DROPPED.productRemoved);
  return deliver(options, row, settle, drop, admin.email, "low-stock mail", async () => {
    const { renderLowStockMail } = await import("./templates.js");
    return renderLowStockMail({ ...product, adminName: admin.name }, options.publicUrl);
  });
}

/**
 * Sends the mails due now, one after another, at most `limit`, and says how many went out and how
 * many failed. A run ends early after `failureLimit` failures in a row (the mail server is away:
 * the rest wait for their backoff or the next run).
 */
export async function sendDueMails(
  options: OutboxOptions,
  {
    limit = 100,
    failureLimit = 3,
    stopped,
  }: { limit?: number; failureLimit?: number; stopped?: () => boolean } = {},
): Promise<{ sent: number; failed: number }> {
  let sent = 0;
  let failed = 0;
  let failuresInRow = 0;
  for (let i = 0; i < limit && !stopped?.() && failuresInRow < failureLimit; i++) {
    const outcome = await sendOne(options);
    if (outcome === "none") break;
    if (outcome === "sent") {
      sent++;
      failuresInRow = 0;
    } else if (outcome === "failed") {
      failed++;
      failuresInRow++;
    }
  }
  return { sent, failed };
}

/**
 * Queues the payment reminder of every unpaid order whose hold ends within `beforeSeconds`, once
 * per order: from the pending orders' index on expires_at, so it reads only the orders due soon.
 * Returns how many were queued.
 */
export async function enqueueReminders(db: Db, beforeSeconds: number): Promise<number> {
  if (beforeSeconds <= 0) return 0;
  const result = await db.execute(sql`
    insert into ${mailOutbox} (kind, order_id)
    select 'payment_reminder', o.id from "order" o
    where o.status = 'pending' and o.expires_at > now()
      and o.expires_at <= now() + make_interval(secs => ${beforeSeconds})
      -- A hold no longer than the reminder's lead would be reminded of as it is placed.
      and o.expires_at - o.created_at > make_interval(secs => ${beforeSeconds})
      and not exists (select 1 from ${mailOutbox} m where m.order_id = o.id and m.kind = 'payment_reminder')
    order by o.id
    on conflict (order_id, kind) do nothing`);
  return result.rowCount ?? 0;
}

/** Mails queued and neither sent nor given up: read from the outbox's partial index. */
export async function outboxBacklog(db: Db): Promise<number> {
  const result = await db.execute<{ n: number }>(
    sql`select count(*)::int as n from ${mailOutbox} where sent_at is null and dropped_at is null`,
  );
  return result.rows[0]?.n ?? 0;
}

/** Every `intervalSeconds`: queue the reminders due, then send what is due. */
export function startMailOutbox(
  options: OutboxOptions & { intervalSeconds: number; reminderSeconds: number },
): PeriodicJob | undefined {
  if (options.intervalSeconds <= 0) return undefined;
  return startPeriodicJob(
    options.intervalSeconds,
    async (stopped) => {
      try {
        await enqueueReminders(options.db, options.reminderSeconds);
        await sendDueMails(options, { stopped });
      } catch (error) {
        options.log?.error({ err: error }, "order mails: run failed");
      }
    },
    "mail outbox",
  );
}
