import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { E2E } from "./env.js";

/** One leaf of a MIME message: its lower-cased headers (unfolded) and its body as sent. */
interface MailPart {
  headers: Map<string, string>;
  body: string;
}

/** Splits headers from body and unfolds the headers (RFC 5322 2.2.3). */
function splitPart(raw: string): MailPart {
  const end = raw.search(/\r?\n\r?\n/);
  const head = end < 0 ? raw : raw.slice(0, end);
  const body = end < 0 ? "" : raw.slice(end).replace(/^\r?\n\r?\n/, "");
  const headers = new Map<string, string>();
  for (const line of head.replace(/\r?\n[ \t]+/g, " ").split(/\r?\n/)) {
    const colon = line.indexOf(":");
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return { headers, body };
}

/** The message's leaves, depth first, each still in its transfer encoding. */
function leavesOf(raw: string): MailPart[] {
  const part = splitPart(raw);
  const type = part.headers.get("content-type") ?? "text/plain";
  const boundary = /^multipart\/[^;]+;.*\bboundary="?([^";]+)"?/i.exec(type)?.[1];
  if (!boundary) return [part];
  // The parts lie between "--boundary" lines; the preamble before the first and the epilogue after
  // "--boundary--" are not parts.
  const pieces = part.body.split(new RegExp(`\\r?\\n?--${boundary.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`));
  return pieces
    .slice(1)
    .filter((piece) => !piece.startsWith("--"))
    .flatMap((piece) => leavesOf(piece.replace(/^[ \t]*\r?\n/, "")));
}

/** A leaf's body as bytes, by its own Content-Transfer-Encoding (7bit and 8bit are as sent). */
function bytesOf(part: MailPart): Buffer {
  const encoding = (part.headers.get("content-transfer-encoding") ?? "7bit").toLowerCase();
  if (encoding === "base64") return Buffer.from(part.body.replace(/\s+/g, ""), "base64");
  if (encoding === "quoted-printable") {
    const latin1 = part.body
      .replace(/=\r?\n/g, "")
      .replace(/=([0-9A-Fa-f]{2})/g, (_m, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
    return Buffer.from(latin1, "latin1");
  }
  return Buffer.from(part.body, "utf8");
}

/**
 * The text of a raw message as a reader sees it: its headers (unfolded, headersOf), then every text
 * part decoded by its own transfer encoding. Only a part marked quoted-printable is decoded as such:
 * a 7bit part is already plain, and its "=" (as in "?token=") must stay as written.
 */
export function mailText(raw: string): string {
  const texts = leavesOf(raw)
    .filter((part) => /^text\//i.test(part.headers.get("content-type") ?? "text/plain"))
    .map((part) => bytesOf(part).toString("utf8"));
  return [headersOf(raw), ...texts].join("\r\n\r\n");
}

/** The headers of a raw message, unfolded, one per line. */
export function headersOf(raw: string): string {
  return raw.slice(0, Math.max(0, raw.search(/\r?\n\r?\n/))).replace(/\r?\n[ \t]+/g, " ");
}

/**
 * Waits for a mail to `to` received by the local SMTP server, the first whose text (mailText) passes
 * `matching` (any, by default), and returns that text. The limit is a safety net for a mail that
 * never comes, not a budget.
 */
export async function waitForMail(
  to: string,
  timeoutMs = 60_000,
  matching: (text: string) => boolean = () => true,
): Promise<string> {
  return mailText(await waitForRawMail(to, (raw) => matching(mailText(raw)), timeoutMs));
}

/** As waitForMail, but the message as it came (its parts still in their transfer encodings). */
export async function waitForRawMail(
  to: string,
  matching: (raw: string) => boolean,
  timeoutMs = 60_000,
): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  const envelope = `X-Envelope-To: ${to}\r\n`;
  while (Date.now() < deadline) {
    for (const file of readdirSync(E2E.mailDir)) {
      if (!file.endsWith(".eml")) continue;
      const raw = readFileSync(path.join(E2E.mailDir, file), "utf8");
      if (raw.startsWith(envelope) && matching(raw)) return raw;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`No mail to ${to} within ${timeoutMs} ms`);
}

/** The first part of a raw message whose Content-Type is `type`, decoded. */
export function attachmentOf(raw: string, type: string): Buffer | undefined {
  const part = leavesOf(raw).find((leaf) =>
    (leaf.headers.get("content-type") ?? "").toLowerCase().startsWith(type.toLowerCase()),
  );
  return part && bytesOf(part);
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
