import { eq, sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { Db } from "../../db/client.js";
import { type MailKind, mailOutbox, orders } from "../../db/schema/index.js";
import type { Mailer } from "../../lib/mailer.js";
import { type PeriodicJob, startPeriodicJob } from "../../lib/periodic.js";
import type { RenderMail } from "./templates.js";

/**
 * The order mails' outbox. Triggers on "order" (migration 0012) write a row per order and kind in
 * the transaction of the change, and enqueueReminders adds the payment reminders, so a mail is
 * never lost with a change that committed, and never sent for one that rolled back. The shop sends
 * them itself: each instance, every MAIL_OUTBOX_INTERVAL_SECONDS, takes the due rows one at a time
 * (FOR UPDATE SKIP LOCKED: instances never take the same row), renders the mail from the order as
 * it is then, hands it to the mailer and marks it sent in the same transaction. A failure (the
 * mail server away) leaves it due again after a backoff; after MAIL_MAX_ATTEMPTS it is given up.
 *
 * Once: a row is marked sent in the transaction that holds its lock while the mail is handed over,
 * so no two instances send it and a sent row is never sent again. The one gap is a crash after the
 * mail server took the mail and before that commit: the row is then sent again, with the same
 * Message-ID (mail-<row id>@<PUBLIC_URL's host>), which mail clients show as one message.
 */

/** Hands a receipt its invoice, when the order has one (features/invoices). */
export type InvoiceAttachment = (
  orderId: string,
) => Promise<{ number: string; filename: string; pdf: Buffer } | undefined>;

export interface OutboxOptions {
  db: Db;
  mailer: Mailer;
  publicUrl: string;
  maxAttempts: number;
  invoiceFor?: InvoiceAttachment;
  log?: Pick<FastifyBaseLogger, "warn" | "error">;
  /** Renders each mail: the server's render thread (render-thread.ts); by default this thread. */
  render?: RenderMail;
}

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
  totalPrice: orders.totalPrice,
  expiresAt: orders.expiresAt,
  paidAt: orders.paidAt,
  transactionId: orders.transactionId,
  carrier: orders.carrier,
  trackingNumber: orders.trackingNumber,
};

type Outcome = "sent" | "failed" | "dropped" | "none";

/** Takes one due mail, if any, and sends it (see the module's comment). */
async function sendOne(options: OutboxOptions): Promise<Outcome> {
  const { db, mailer, publicUrl, maxAttempts } = options;
  return db.transaction(async (tx) => {
    const due = await tx.execute<{ id: number; kind: MailKind; order_id: string; attempts: number }>(sql`
      select id, kind, order_id, attempts from ${mailOutbox}
      where sent_at is null and dropped_at is null and due_at <= now()
      order by due_at, id
      limit 1
      for update skip locked`);
    const row = due.rows[0];
    if (!row) return "none";
    const [order] = await tx.select(mailOrderColumns).from(orders).where(eq(orders.id, row.order_id));
    if (!order) {
      // Removed before its mail went out: there is nothing left to tell of.
      await tx
        .update(mailOutbox)
        .set({ droppedAt: sql`now()`, lastError: "the order was removed" })
        .where(eq(mailOutbox.id, row.id));
      return "dropped";
    }
    if ((row.kind === "order_placed" || row.kind === "payment_reminder") && order.status !== "pending") {
      // Paid (or expired) before its booking mail or reminder went out: asking to pay would mislead.
      await tx
        .update(mailOutbox)
        .set({ droppedAt: sql`now()`, lastError: `the order is ${order.status} already` })
        .where(eq(mailOutbox.id, row.id));
      return "dropped";
    }
    try {
      const invoice = row.kind === "payment_receipt" ? await options.invoiceFor?.(order.id) : undefined;
      const mail = await (options.render ?? renderHere)(row.kind, order, publicUrl, invoice?.number);
      await mailer.send({
        to: order.email,
        ...mail,
        messageId: `<mail-${row.id}@${new URL(publicUrl).hostname}>`,
        attachments: invoice
          ? [{ filename: invoice.filename, content: invoice.pdf, contentType: "application/pdf" }]
          : undefined,
      });
      await tx
        .update(mailOutbox)
        .set({ sentAt: sql`now()`, attempts: row.attempts + 1, lastError: null })
        .where(eq(mailOutbox.id, row.id));
      return "sent";
    } catch (error) {
      const attempts = row.attempts + 1;
      const message = error instanceof Error ? error.message : String(error);
      const givenUp = attempts >= maxAttempts;
      await tx
        .update(mailOutbox)
        .set({
          attempts,
          lastError: message.slice(0, 500),
          dueAt: sql`now() + make_interval(secs => ${backoffSeconds(attempts)})`,
          droppedAt: givenUp ? sql`now()` : null,
        })
        .where(eq(mailOutbox.id, row.id));
      options.log?.[givenUp ? "error" : "warn"](
        { err: error, mail: row.id, kind: row.kind, attempts },
        givenUp ? "order mail given up" : "order mail failed, to be tried again",
      );
      return givenUp ? "dropped" : "failed";
    }
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
  return startPeriodicJob(options.intervalSeconds, async (stopped) => {
    try {
      await enqueueReminders(options.db, options.reminderSeconds);
      await sendDueMails(options, { stopped });
    } catch (error) {
      options.log?.error({ err: error }, "order mails: run failed");
    }
  });
}
