import { eq } from "drizzle-orm";
import type { MailPreferences } from "../../../shared/mail-preferences.js";
import type { Db } from "../../db/client.js";
import { users } from "../../db/schema/index.js";

/** The account's mail preferences (user.reminder_mails). */
export async function getMailPreferences(db: Db, userId: string): Promise<MailPreferences> {
  const [row] = await db
    .select({ reminderMails: users.reminderMails })
    .from(users)
    .where(eq(users.id, userId));
  return { reminderMails: row?.reminderMails ?? true };
}

/** Sets them; false also for a one-click unsubscribe. Says whether the account exists. */
export async function setReminderMails(db: Db, userId: string, reminderMails: boolean): Promise<boolean> {
  const done = await db
    .update(users)
    .set({ reminderMails })
    .where(eq(users.id, userId))
    .returning({ id: users.id });
  return done.length > 0;
}
