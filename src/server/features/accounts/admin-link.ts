import { randomBytes } from "node:crypto";
import { and, eq, gt } from "drizzle-orm";
import type { Config } from "../../config.js";
import type { Db } from "../../db/client.js";
import { users, verifications } from "../../db/schema/index.js";
import { claimRecipient } from "../../lib/mail-cap.js";
import { framedMailHtml } from "../../lib/mail-frame.js";
import type { Mailer } from "../../lib/mailer.js";
import { endResetLinks, RESET_LINK_PREFIX } from "./service.js";

/**
 * The role admin by address (ADMIN_EMAILS, or `npm run admin -- grant`) is given only to whoever
 * proves they own the address: a link goes to it, and the role comes when the link is followed and
 * the account's password set there. The link is a password-reset link (better-auth's, with a
 * longer life), so following it also takes the account from anyone else who registered the
 * address first: their password is replaced and their sessions end (revokeSessionsOnPasswordReset).
 * A bare "verify your email" link would not: the squatter's password would stay, and the role with it.
 */
export const ADMIN_LINK_HOURS = 24;

/** The pending grant that a followed link completes: its value is the account's id. */
const grantOf = (userId: string) => `admin-grant:${userId}`;

export function isListedAdmin(config: Config, email: string): boolean {
  return config.adminEmails.includes(email.trim().toLowerCase());
}

/** What an admin does after the password, where the shop requires a second factor of admins. */
export const ENROL_NEXT =
  "Then sign in and set up a second factor (an authenticator app or a passkey) in My Profile: the admin pages need one.";

function adminLinkMail(url: string, enrol: boolean) {
  const next = enrol ? `\n\n${ENROL_NEXT}` : "";
  return {
    subject: "Confirm your email to become a Gearhouse admin",
    text: `This address is to be an admin of the Gearhouse shop. To confirm that it is yours, choose the account's password here within ${ADMIN_LINK_HOURS} hours:\n${url}\n\nThe account gets the admin role when the password is saved, and every other session of the account is signed out.${next}\n\nIf you did not expect this, ignore this message: nothing changes.`,
    html: framedMailHtml(
      `<p>This address is to be an admin of the Gearhouse shop. To confirm that it is yours, <a href="${url}">choose the account's password</a> within ${ADMIN_LINK_HOURS} hours.</p><p>The account gets the admin role when the password is saved, and every other session of the account is signed out.</p>${enrol ? `<p>${ENROL_NEXT}</p>` : ""}<p>If you did not expect this, ignore this message: nothing changes.</p>`,
    ),
  };
}

/**
 * Sends the account's address a link that gives it role admin once followed (see above), and
 * records the pending grant. Earlier reset links of the account end: only the newest works.
 * Resolves once the link is stored, with the mail's sending, which the caller may leave to the
 * background as reset mails are.
 */
export async function sendAdminLink(
  db: Db,
  mailer: Mailer,
  config: Config,
  user: { id: string; email: string },
): Promise<{ mailed: Promise<void> }> {
  const token = randomBytes(24).toString("base64url");
  const expiresAt = new Date(Date.now() + ADMIN_LINK_HOURS * 60 * 60 * 1000);
  await db.transaction(async (tx) => {
    await endResetLinks(tx, { userId: user.id });
    await tx.delete(verifications).where(eq(verifications.identifier, grantOf(user.id)));
    await tx.insert(verifications).values([
      { id: crypto.randomUUID(), identifier: `${RESET_LINK_PREFIX}${token}`, value: user.id, expiresAt },
      { id: crypto.randomUUID(), identifier: grantOf(user.id), value: user.id, expiresAt },
    ]);
  });
  // Counted in the address's hourly mails, never held back by them: only ADMIN_EMAILS (once, when
  // the account is made) or the operator (`npm run admin -- grant`) sends it.
  await claimRecipient(db, user.email, config.mail.perRecipientPerHour, { always: true });
  // Where admins must have a second factor, the page that sets the password leads on to its
  // enrolment (through sign-in).
  const enrol = config.adminSecondFactor === "required";
  const url = `${config.publicUrl}/passwordReset?token=${encodeURIComponent(token)}${enrol ? "&then=secondFactor" : ""}`;
  return { mailed: mailer.send({ to: user.email, ...adminLinkMail(url, enrol) }) };
}

/**
 * After a password reset (a link to the address was followed and the password set there): the
 * account gets role admin when its address is listed in ADMIN_EMAILS or a grant is pending.
 * Returns whether it did.
 */
export async function completeAdminLink(
  db: Db,
  config: Config,
  user: { id: string; email: string },
): Promise<boolean> {
  const granted = await db
    .delete(verifications)
    .where(and(eq(verifications.identifier, grantOf(user.id)), gt(verifications.expiresAt, new Date())))
    .returning({ id: verifications.id });
  if (granted.length === 0 && !isListedAdmin(config, user.email)) return false;
  await db.update(users).set({ role: "admin" }).where(eq(users.id, user.id));
  return true;
}
