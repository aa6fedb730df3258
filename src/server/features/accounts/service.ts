import { and, eq, inArray, like, ne } from "drizzle-orm";
import { messages } from "../../../shared/messages.js";
import type { Config } from "../../config.js";
import type { Db, Tx } from "../../db/client.js";
import { users, verifications } from "../../db/schema/index.js";
import { hitRateLimit } from "../../lib/rate-limit.js";
import type { Auth } from "./auth.js";

/** The account with this email (its id, address and role), or undefined. */
export async function accountByEmail(
  db: Db,
  email: string,
): Promise<{ id: string; email: string; role: string } | undefined> {
  const [row] = await db
    .select({ id: users.id, email: users.email, role: users.role })
    .from(users)
    .where(eq(users.email, email.trim().toLowerCase()));
  return row;
}

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

/** Accounts whose address ADMIN_EMAILS lists but that have no role admin (yet), for the start-up log. */
export async function listedWithoutRole(db: Db, emails: readonly string[]): Promise<string[]> {
  if (emails.length === 0) return [];
  const rows = await db
    .select({ email: users.email })
    .from(users)
    .where(and(inArray(users.email, [...emails]), ne(users.role, "admin")));
  return rows.map((r) => r.email);
}

/**
 * At start, under the set-up lock: the demo accounts (development), and a line for every account
 * ADMIN_EMAILS lists that has not proved its address. Nobody is promoted here (admin-link.ts).
 */
export async function setUpAccounts(
  db: Db,
  auth: Auth,
  config: Config,
  say: (line: string) => void,
): Promise<void> {
  for (const email of await listedWithoutRole(db, config.adminEmails))
    say(messages.startup.adminNotProved(email));
  if (config.demoAccounts) await seedDemoAccounts(db, auth);
}
