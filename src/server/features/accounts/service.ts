import { and, eq, inArray, like, type SQL } from "drizzle-orm";
import type { Db, Tx } from "../../db/client.js";
import { users, verifications } from "../../db/schema/index.js";
import { claimRecipient } from "../../lib/mail-cap.js";
import { hitRateLimit } from "../../lib/rate-limit.js";

type Account = { id: string; email: string; role: string };

/** The account a column names (its id, address and role), or undefined. */
async function accountWhere(db: Db, where: SQL): Promise<Account | undefined> {
  const [row] = await db
    .select({ id: users.id, email: users.email, role: users.role })
    .from(users)
    .where(where);
  return row;
}

/** The account with this email, or undefined. */
export const accountByEmail = (db: Db, email: string) =>
  accountWhere(db, eq(users.email, email.trim().toLowerCase()));

/** The account of this id, or undefined. */
export const accountById = (db: Db, id: string) => accountWhere(db, eq(users.id, id));

/**
 * better-auth keeps a reset link's token in its verification table as `reset-password:<token>`
 * (stored as is: the shop sets no `verification.storeIdentifier`), its value the user's id.
 */
export const RESET_LINK_PREFIX = "reset-password:";

/**
 * Ends every outstanding reset link of one account, given its id or its email (an email without
 * an account costs the same statement and ends nothing). Returns how many links it ended.
 */
export async function endResetLinks(
  db: Db | Tx,
  of: { userId: string } | { email: string },
): Promise<number> {
  const owner =
    "userId" in of
      ? eq(verifications.value, of.userId)
      : inArray(
          verifications.value,
          db.select({ id: users.id }).from(users).where(eq(users.email, of.email.trim().toLowerCase())),
        );
  const rows = await db
    .delete(verifications)
    .where(and(like(verifications.identifier, `${RESET_LINK_PREFIX}%`), owner))
    .returning({ id: verifications.id });
  return rows.length;
}

/** The mails anyone can have the shop send to an address, capped per address (AUTH_MAIL_LIMIT_PER_HOUR). */
export type CappedMail = "reset" | "account-exists" | "verify";

/** The rate-limit key counting one kind of mail to one address. */
export const mailCapKey = (kind: CappedMail, email: string) => `mail:${kind}:${email.trim().toLowerCase()}`;

/**
 * Counts one mail of this kind to this address against its cap of `limits.perKind` an hour, and
 * then against the address's cap across every kind of mail (`limits.perRecipient`,
 * MAIL_LIMIT_PER_RECIPIENT_PER_HOUR: lib/mail-cap.ts): false when either is reached, and then the
 * mail is not sent (the request is answered as always). Counted before the answer, so the mail
 * goes (or not) before it too.
 */
export async function claimMail(
  db: Db,
  kind: CappedMail,
  email: string,
  limits: { perKind: number; perRecipient: number },
): Promise<boolean> {
  const hit = await hitRateLimit(db, mailCapKey(kind, email), limits.perKind, 60 * 60);
  return hit.allowed && (await claimRecipient(db, email, limits.perRecipient)).allowed;
}
