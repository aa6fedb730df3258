import type { FastifyPluginAsync } from "fastify";
import type { Mailer } from "../../lib/mailer.js";
import { runInBackground } from "../../lib/periodic.js";
import { type InvoiceAttachment, type OutboxOptions, outboxBacklog, startMailOutbox } from "./outbox.js";
import { mailRenderThread } from "./render-thread.js";

export type { InvoiceAttachment } from "./outbox.js";
/**
 * For tests of other features that send the outbox when they ask (the stock ledger's low-stock
 * mail, the back-in-stock notices), and the reasons a mail is dropped that they check.
 */
export { DROPPED, sendDueMails } from "./outbox.js";

/**
 * The order mails: this instance sends the outbox's due mails every MAIL_OUTBOX_INTERVAL_SECONDS
 * (none when 0), from when the server is ready until it closes, rendered in a thread of the lowest
 * priority (render-thread.ts).
 */
export const mailOutboxPlugin: FastifyPluginAsync<{
  mailer: Mailer;
  invoiceFor?: InvoiceAttachment;
  creditNoteFor?: InvoiceAttachment;
  unsubscribeUrl?: (noticeId: string) => string;
  reminderLinks?: OutboxOptions["reminderLinks"];
}> = async (app, { mailer, invoiceFor, creditNoteFor, unsubscribeUrl, reminderLinks }) => {
  app.gauge(
    "gearhouse_mail_outbox_backlog",
    "Order mails queued and not sent yet (due now or waiting for their next try).",
    () => outboxBacklog(app.db),
  );
  const renderer = mailRenderThread();
  runInBackground(app, {
    start: () =>
      startMailOutbox({
        render: renderer.render,
        db: app.db,
        mailer,
        publicUrl: app.config.publicUrl,
        maxAttempts: app.config.mail.maxAttempts,
        perRecipientPerHour: app.config.mail.perRecipientPerHour,
        invoiceFor,
        creditNoteFor,
        unsubscribeUrl,
        reminderLinks,
        log: app.log,
        intervalSeconds: app.config.mail.outboxIntervalSeconds,
        reminderSeconds: app.config.mail.reminderSeconds,
      }),
    close: () => renderer.close(),
  });
};
