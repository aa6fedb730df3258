import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * The unsubscribe link of a back-in-stock mail: the subscription's id signed with the shop's
 * AUTH_SECRET (HMAC-SHA-256, base64url), so it works without signing in and cannot be made for
 * another customer's subscription.
 */
export function unsubscribeToken(secret: string, noticeId: string): string {
  return createHmac("sha256", secret).update(`stock-notice:${noticeId}`).digest("base64url");
}

export function validUnsubscribeToken(secret: string, noticeId: string, token: string): boolean {
  const expected = Buffer.from(unsubscribeToken(secret, noticeId));
  const given = Buffer.from(token);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/** The client's page that asks before it unsubscribes (a mail scanner that follows links unsubscribes nobody). */
export function unsubscribeUrl(publicUrl: string, secret: string, noticeId: string): string {
  const query = new URLSearchParams({ id: noticeId, token: unsubscribeToken(secret, noticeId) });
  return `${publicUrl}/stock-notices/unsubscribe?${query}`;
}
