// The tests' mail reader (support/mail.ts) against messages built by the shop's own mailer library:
// a link read from a mail must be the link that was sent, whatever transfer encoding each part got.
import { expect, test } from "@playwright/test";
import nodemailer from "nodemailer";
import { attachmentOf, linkTo, mailText } from "./support/mail.js";

const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "\r\n" });

async function raw(text: string, html: string): Promise<string> {
  const sent = await transport.sendMail({
    from: "shop@example.com",
    to: "reader@example.com",
    subject: "Reset",
    text,
    html,
    attachments: [
      { filename: "invoice.pdf", content: Buffer.from("%PDF-1.7 body"), contentType: "application/pdf" },
    ],
  });
  return `X-Envelope-To: reader@example.com\r\n${(sent.message as Buffer).toString("utf8")}`;
}

test("a 7bit part's '=' stays as written: a token starting with hex digits is read whole", async () => {
  // Short lines: the text part goes out 7bit, so "=3F" is three characters, not an escape.
  const url = "http://127.0.0.1:41234/passwordReset?token=3FA0bcdefghijklmnopqrstu";
  const message = await raw(`Set a new password here:\n${url}\n`, `<p><a href="${url}">Set</a></p>`);
  expect(message).toContain("Content-Transfer-Encoding: 7bit");
  expect(linkTo(mailText(message), "/passwordReset")).toBe(url);
});

test("a quoted-printable part is decoded, its soft breaks joined and its UTF-8 whole", async () => {
  const url = `http://127.0.0.1:41234/passwordReset?token=${"A1".repeat(40)}`;
  const message = await raw(`Grüße — here:\n${url}\n`, `<p>Grüße — <a href="${url}">Set</a></p>`);
  expect(message).toContain("Content-Transfer-Encoding: quoted-printable");
  const text = mailText(message);
  expect(linkTo(text, "/passwordReset")).toBe(url);
  expect(text).toContain("Grüße —");
  expect(attachmentOf(message, "application/pdf")?.toString("latin1")).toBe("%PDF-1.7 body");
});
