import { and, eq, inArray, ne } from "drizzle-orm";
import { startupMessages } from "../../../shared/messages/startup.js";
import type { Config } from "../../config.js";
import type { Db } from "../../db/client.js";
import { users } from "../../db/schema/index.js";
import type { Auth } from "./auth.js";

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
async function seedDemoAccounts(db: Db, auth: Auth): Promise<(typeof DEMO_ACCOUNTS)[number][]> {
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
    // demo admin without its role for good. The demo accounts' addresses are the shop's own: they
    // count as verified, so the demo customer can book at once.
    await db
      .update(users)
      .set({ role: account.role, emailVerified: true })
      .where(eq(users.email, account.email));
  }
  return created;
}

/** Accounts whose address ADMIN_EMAILS lists but that have no role admin (yet), for the start-up log. */
async function listedWithoutRole(db: Db, emails: readonly string[]): Promise<string[]> {
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
    say(startupMessages.adminNotProved(email));
  if (config.demoAccounts) await seedDemoAccounts(db, auth);
}
