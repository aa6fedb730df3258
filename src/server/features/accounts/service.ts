import { and, eq, inArray, like } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { users, verifications } from "../../db/schema/index.js";
import { hitRateLimit } from "../../lib/rate-limit.js";
import type { Auth } from "./auth.js";

/** Gives role admin to the accounts listed in ADMIN_EMAILS (run at start). */
export async function promoteAdminEmails(db: Db, emails: string[]): Promise<number> {
  if (emails.length === 0) return 0;
  const rows = await db
    .update(users)
    .set({ role: "admin" })
    .where(inArray(users.email, emails))
    .returning({ id: users.id });
  return rows.length;
}

/** The id of the account with this email, or undefined. */
export async function userIdByEmail(db: Db, email: string): Promise<string | undefined> {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.email, email.trim().toLowerCase()));
  return row?.id;
}

/**
 * better-auth keeps a reset link's token in its verification table as `reset-password:<token>`
 * (stored as is: the shop sets no `verification.storeIdentifier`), its value the user's id.
 */
const RESET_LINK = "reset-password:%";

/**
 * Ends every outstanding reset link of one account, given its id or its email (an email without
 * an account costs the same statement and ends nothing). Returns how many links it ended.
 */
export async function endResetLinks(db: Db, of: { userId: string } | { email: string }): Promise<number> {
  const owner =
    "userId" in of
      ? eq(verifications.value, of.userId)
      : inArray(
          verifications.value,
          db.select({ id: users.id }).from(users).where(eq(users.email, of.email.trim().toLowerCase())),
        );
  const rows = await db
    .delete(verifications)
    .where(and(like(verifications.identifier, RESET_LINK), owner))
    .returning({ id: verifications.id });
  return rows.length;
}

/** The mails anyone can have the shop send to an address, capped per address (AUTH_MAIL_LIMIT_PER_HOUR). */
export type CappedMail = "reset" | "account-exists";

/**
 * Counts one mail of this kind to this address against its cap of `perHour` an hour: false when
 * the cap is reached, and then the mail is not sent (the request is answered as always).
 */
export async function claimMail(db: Db, kind: CappedMail, email: string, perHour: number): Promise<boolean> {
  const hit = await hitRateLimit(db, `mail:${kind}:${email.trim().toLowerCase()}`, perHour, 60 * 60);
  return hit.allowed;
}

export const DEMO_ACCOUNTS = [
  {
    name: "Gearhouse Admin",
    email: "admin@gearhouse.local",
    password: "Admin123!",
    phone: "+1 555 0100",
    role: "admin",
  },
  {
    name: "Casey Customer",
    email: "customer@gearhouse.local",
    password: "Customer123!",
    phone: "+1 555 0101",
    role: "user",
  },
] as const;

/** Creates the demo admin and customer (development only); returns those it created. */
export async function seedDemoAccounts(db: Db, auth: Auth): Promise<(typeof DEMO_ACCOUNTS)[number][]> {
  const created: (typeof DEMO_ACCOUNTS)[number][] = [];
  for (const account of DEMO_ACCOUNTS) {
    const existing = await db.select({ id: users.id }).from(users).where(eq(users.email, account.email));
    if (existing.length === 0) {
      await auth.api.signUpEmail({
        body: { name: account.name, email: account.email, password: account.password, phone: account.phone },
      });
      created.push(account);
    }
    // Also for an existing account: a crash between the sign-up and this line must not leave the
    // demo admin without its role for good.
    await db.update(users).set({ role: account.role }).where(eq(users.email, account.email));
  }
  return created;
}
