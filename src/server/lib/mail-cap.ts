import { and, eq, gt, sql } from "drizzle-orm";
import type { Db } from "../db/client.js";
import { rateLimits } from "../db/schema/index.js";
import { hitRateLimit } from "./rate-limit.js";

/**
 * The cap on the mails one address receives from the shop in an hour, across every kind (order
 * mails, reset links, account-exists notices, verification and admin links): one fixed-window
 * counter per recipient in the rate_limit table (lib/rate-limit.ts), so every instance counts in
 * the same place. Whoever can make the shop write to an address (a sign-up with someone else's
 * email, a flood of bookings) can then put at most MAIL_LIMIT_PER_RECIPIENT_PER_HOUR mails an hour
 * in that inbox. Each kind's own caps (AUTH_MAIL_LIMIT_PER_HOUR) still apply beneath this one.
 * Who claims: the outbox for order mails (features/mail/outbox.ts), claimMail for the account mails
 * anyone can ask for (features/accounts/service.ts), sendAdminLink for the admin link.
 */
const HOUR = 60 * 60;

const recipientKey = (email: string) => `mail:to:${email.trim().toLowerCase()}`;

export interface RecipientClaim {
  /** The mail may go: under the cap, or one that always goes. */
  allowed: boolean;
  /** When the recipient's window ends (the next mail over the cap may go then). */
  retryAfterSeconds: number;
}

/**
 * Counts one mail to `email` against its cap of `perHour`. A mail that `always` goes (a paid
 * order's receipt) is counted too, so it uses up the hour like any other, but is never refused.
 */
export async function claimRecipient(
  db: Db,
  email: string,
  perHour: number,
  { always = false }: { always?: boolean } = {},
): Promise<RecipientClaim> {
  const hit = await hitRateLimit(db, recipientKey(email), perHour, HOUR);
  return { allowed: always || hit.allowed, retryAfterSeconds: hit.retryAfterSeconds };
}

/**
 * Gives back the count of a claimed mail that did not go (the mail server refused or was away), so
 * a mail tried again after an outage is counted once. Never below zero.
 */
export async function releaseRecipient(db: Db, email: string): Promise<void> {
  await db
    .update(rateLimits)
    .set({ count: sql`${rateLimits.count} - 1` })
    .where(and(eq(rateLimits.key, recipientKey(email)), gt(rateLimits.count, 0)));
}
