import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { E2E } from "./env.js";

/** Undoes quoted-printable soft line breaks and escapes so links can be read from a raw message. */
function decodeQuotedPrintable(text: string): string {
  return text
    .replace(/=\r?\n/g, "")
    .replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}

/**
 * Waits for a mail to `to` received by the local SMTP server, the first whose decoded text passes
 * `matching` (any, by default), and returns its decoded text. The limit is a safety net for a mail
 * that never comes, not a budget.
 */
export async function waitForMail(
  to: string,
  timeoutMs = 60_000,
  matching: (text: string) => boolean = () => true,
): Promise<string> {
  return decodeQuotedPrintable(
    await waitForRawMail(to, (raw) => matching(decodeQuotedPrintable(raw)), timeoutMs),
  );
}

/** As waitForMail, but the message as it came (its attachments still in base64). */
export async function waitForRawMail(
  to: string,
  matching: (raw: string) => boolean,
  timeoutMs = 60_000,
): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    for (const file of readdirSync(E2E.mailDir)) {
      if (!file.endsWith(".eml")) continue;
      const raw = readFileSync(path.join(E2E.mailDir, file), "utf8");
      if (raw.startsWith(`X-Envelope-To: ${to}`) && matching(raw)) return raw;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`No mail to ${to} within ${timeoutMs} ms`);
}

/** The attachment of a raw message whose Content-Type is `type`, decoded from base64. */
export function attachmentOf(raw: string, type: string): Buffer | undefined {
  const header = raw.search(new RegExp(`Content-Type: ${type.replace("/", "\\/")}`, "i"));
  if (header < 0) return undefined;
  const bodyStart = raw.indexOf("\r\n\r\n", header);
  const bodyEnd = raw.indexOf("\r\n--", bodyStart);
  return Buffer.from(raw.slice(bodyStart + 4, bodyEnd).replace(/\s+/g, ""), "base64");
}

/**
 * The first link in the mail to a path starting with `path` (a mail also links the shop's home from
 * its name, lib/mail-frame.ts, before its action).
 */
export function linkTo(text: string, path: string): string {
  const link = text.match(/https?:\/\/[^\s"<>]+/g)?.find((url) => new URL(url).pathname.startsWith(path));
  if (!link) throw new Error(`No link to ${path} in the mail`);
  return link;
}
