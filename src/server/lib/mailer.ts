import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import nodemailer from "nodemailer";
import type { Config } from "../config.js";

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** A fixed Message-ID (`<…@…>`): a mail sent again after a crash is then the same message. */
  messageId?: string;
  attachments?: { filename: string; content: Buffer; contentType: string }[];
  /**
   * Headers of its own, passed to nodemailer as they are (and kept in the dev outbox's file): the
   * optional mails' List-Unsubscribe and List-Unsubscribe-Post (features/mail/outbox.ts).
   */
  headers?: Record<string, string>;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
}

/**
 * How long the mail server may take, in milliseconds: to connect, to greet, and to answer each step
 * (the socket's idle time). A server that stalls longer fails the mail, which is tried again after
 * its backoff; the whole exchange stays well within the outbox's lease (features/mail/outbox.ts,
 * LEASE_SECONDS), so a live sender never loses its mail to another. Nodemailer's own defaults are 2
 * and 10 minutes. The URL's query may set them otherwise (e.g. ?socketTimeout=…).
 */
const SMTP_TIMEOUTS = { connectionTimeout: 30_000, greetingTimeout: 60_000, socketTimeout: 60_000 };

/**
 * SMTP when SMTP_URL is set; otherwise the dev outbox: each message is saved under
 * DATA_DIR/outbox and announced in the log, so links can be followed without a mail server.
 */
export function createMailer(config: Config, log: (msg: string) => void): Mailer {
  if (config.smtpUrl) {
    const transport = nodemailer.createTransport({ url: config.smtpUrl, ...SMTP_TIMEOUTS });
    return {
      async send(mail) {
        await transport.sendMail({ from: config.mailFrom, ...mail });
      },
    };
  }
  const outbox = path.join(config.dataDir, "outbox");
  return {
    async send(mail) {
      mkdirSync(outbox, { recursive: true });
      const file = path.join(
        outbox,
        `${new Date().toISOString().replace(/[:.]/g, "-")}-${mail.to.replace(/[^a-z0-9@.]/gi, "_")}.json`,
      );
      const attachments = mail.attachments?.map(({ filename, content, contentType }) => {
        const saved = `${file.slice(0, -".json".length)}-${filename}`;
        writeFileSync(saved, content, { mode: 0o600 });
        return { filename, contentType, saved };
      });
      writeFileSync(file, JSON.stringify({ from: config.mailFrom, ...mail, attachments }, null, 2), {
        mode: 0o600,
      });
      log(`Mail to ${mail.to} saved in ${file}:\n${mail.text}`);
    },
  };
}
