import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * The one-click unsubscribe link of the optional mails (RFC 8058): the account's id and an HMAC-SHA-256
 * of it and the link's purpose under the shop's AUTH_SECRET, so it works without signing in, never
 * ends (an old mail's link still works) and cannot be made for another account: "<id>.<mac>", the
 * id base64url-encoded (better-auth's ids are letters and digits today, but the token does not rely on it).
 */
const PURPOSE = "mail-unsubscribe:reminders";

const mac = (secret: string, userId: string) =>
  createHmac("sha256", secret).update(`${PURPOSE}:${userId}`).digest("base64url");

export function reminderUnsubscribeToken(secret: string, userId: string): string {
  return `${Buffer.from(userId).toString("base64url")}.${mac(secret, userId)}`;
}

/** The account a token was made for, or undefined when it is not one the shop signed. */
export function userOfUnsubscribeToken(secret: string, token: string): string | undefined {
  const [encoded, given, ...rest] = token.split(".");
  if (!encoded || !given || rest.length > 0) return undefined;
  const userId = Buffer.from(encoded, "base64url").toString("utf8");
  // Decoding is lenient: only the canonical spelling of an id is the token the shop made.
  if (!userId || Buffer.from(userId).toString("base64url") !== encoded) return undefined;
  const expected = Buffer.from(mac(secret, userId));
  const actual = Buffer.from(given);
  return expected.length === actual.length && timingSafeEqual(expected, actual) ? userId : undefined;
}

/** The address of the one-click POST (List-Unsubscribe); a GET of it shows the client's page. */
export function oneClickUnsubscribeUrl(publicUrl: string, secret: string, userId: string): string {
  return `${publicUrl}/api/mail/unsubscribe?${new URLSearchParams({ token: reminderUnsubscribeToken(secret, userId) })}`;
}

/** The client's page that asks before it turns reminder mails off (a link scanner turns off nothing). */
export function unsubscribePageUrl(publicUrl: string, secret: string, userId: string): string {
  return `${publicUrl}/unsubscribe?${new URLSearchParams({ token: reminderUnsubscribeToken(secret, userId) })}`;
}
