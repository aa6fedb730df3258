import { createHash, randomBytes } from "node:crypto";
import { and, eq, ne, sql } from "drizzle-orm";
import type { z } from "zod";
import type { emailChangeRequestSchema } from "../../../shared/email-change.js";
import { emailChangeMessages as m } from "../../../shared/messages/email-change.js";
import { problemCodes } from "../../../shared/problem-codes.js";
import type { Config } from "../../config.js";
import type { Db } from "../../db/client.js";
import { emailChanges, sessions, users } from "../../db/schema/index.js";
import { violatesUnique } from "../../db/sql-state.js";
import { claimRecipient } from "../../lib/mail-cap.js";
import { framedMailHtml } from "../../lib/mail-frame.js";
import type { Mailer } from "../../lib/mailer.js";
import { badRequest, conflict, gone, HttpProblem, TooManyRequests } from "../../lib/problem.js";
import { hitRateLimit } from "../../lib/rate-limit.js";
import type { SessionUser } from "../../plugins/session.js";
import { type Actor, recordActivity } from "../activity/index.js";
import type { Auth } from "./auth.js";
import { passwordMatches } from "./second-factor.js";
import { accountByEmail, endResetLinks } from "./service.js";

/**
 * Change email (issue 34, item 2; docs/product.md, "Your account"). A signed-in customer asks with
 * the new address and their password; the new address gets a link, and only when it is followed
 * (a POST from the link's page: a GET changes nothing, so a mail scanner fetching it does no harm)
 * does the account's email change, in one transaction with the rest: the address marked verified,
 * the request gone, the other sessions and reset links ended. The old address is then told.
 *
 * Only the SHA-256 of the link's token is kept (table email_change, one row per account: a newer
 * request replaces the older one), valid EMAIL_CHANGE_LINK_HOURS.
 *
 * An address another account uses is refused without telling the requester: the answer is the
 * same as for a free address (sign-up answers so too, and tells nobody who shops here), no link is
 * made, and the address's owner gets a mail saying someone tried. The requester learns only what
 * the owner of that inbox learns. An address taken between the request and the link (a sign-up
 * meanwhile) is refused when the link is followed, with a 409 the link's page explains: by then
 * whoever follows it holds the inbox.
 */

export interface EmailChangeDeps {
  db: Db;
  auth: Auth;
  mailer: Mailer;
  config: Config;
  log: { error(obj: unknown, msg?: string): void };
}

/** The SHA-256 of a token, as kept. */
export const tokenHash = (token: string) => createHash("sha256").update(token).digest("hex");

/** "jane.doe@example.com" → "j***@example.com": enough for its owner to know it, little for anyone else. */
function maskedEmail(email: string): string {
  const at = email.lastIndexOf("@");
  return `${email.slice(0, 1)}***${email.slice(at)}`;
}

/** Whether the account signs in with a password (a Google-only account has none). */
async function hasPassword(db: Db, userId: string): Promise<boolean> {
  const rows = await db.execute<{ yes: boolean }>(
    sql`select exists (select 1 from account where user_id = ${userId} and provider_id = 'credential' and password is not null) as yes`,
  );
  return rows.rows[0]?.yes === true;
}

const HOUR = 60 * 60;

/**
 * The signed-in customer's request. Checked in this order: the address is not theirs already, the
 * account has a password and it is right (a wrong one is said at its field), then the account's
 * hourly cap (AUTH_MAIL_LIMIT_PER_HOUR requests, counted once the password is right) and the new
 * address's cap across every mail (lib/mail-cap.ts). Then a link, or for an address in use a
 * notice to its owner (see the module's comment). The mail is not awaited.
 */
export async function requestEmailChange(
  deps: EmailChangeDeps,
  user: SessionUser,
  input: z.output<typeof emailChangeRequestSchema>,
): Promise<{ expiresAt: string }> {
  const { db, config } = deps;
  const newEmail = input.newEmail;
  if (newEmail === user.email.toLowerCase())
    throw badRequest(m.same, [{ path: "newEmail", message: m.same }]);
  if (!(await hasPassword(db, user.id))) throw conflict(m.noPassword);
  if (!(await passwordMatches(db, deps.auth, user.id, input.password)))
    throw badRequest(m.passwordInvalid, [{ path: "password", message: m.passwordInvalid }]);

  const asked = await hitRateLimit(
    db,
    `mail:email-change:user:${user.id}`,
    config.authMailLimitPerHour,
    HOUR,
  );
  if (!asked.allowed)
    throw new TooManyRequests(m.capped(Math.ceil(asked.retryAfterSeconds / 60)), asked.retryAfterSeconds);
  const recipient = await claimRecipient(db, newEmail, config.mail.perRecipientPerHour);
  if (!recipient.allowed)
    throw new TooManyRequests(
      m.capped(Math.ceil(recipient.retryAfterSeconds / 60)),
      recipient.retryAfterSeconds,
    );

  const expiresAt = new Date(Date.now() + config.emailChangeLinkHours * HOUR * 1000);
  const taken = await accountByEmail(db, newEmail);
  if (taken) {
    // The older request ends as a newer one would end it, so nothing tells the two paths apart.
    await db.delete(emailChanges).where(eq(emailChanges.userId, user.id));
    send(deps, newEmail, inUseMail(config.publicUrl), "email-in-use mail");
    return { expiresAt: expiresAt.toISOString() };
  }
  const token = randomBytes(32).toString("base64url");
  // One row per account: a newer request replaces the older (its link stops working).
  await db
    .insert(emailChanges)
    .values({ userId: user.id, newEmail, tokenHash: tokenHash(token), expiresAt })
    .onConflictDoUpdate({
      target: emailChanges.userId,
      set: { newEmail, tokenHash: tokenHash(token), expiresAt, createdAt: sql`now()` },
    });
  const link = `${config.publicUrl}/confirm-email?token=${encodeURIComponent(token)}`;
  send(deps, newEmail, linkMail(link, config.emailChangeLinkHours), "email-change link mail");
  return { expiresAt: expiresAt.toISOString() };
}

/**
 * Follows a link: in one transaction the email changes (and counts as verified), the request is
 * removed, every session of the account but the one following the link (when it is the account's)
 * ends, and so do its reset links (they were mailed to the old address). Then the old address is
 * told. Refused: a token unknown, used or replaced (400), expired (410), an address another
 * account took meanwhile (409, user.email's unique index deciding a race with a sign-up).
 */
export async function confirmEmailChange(
  deps: EmailChangeDeps,
  token: string,
  current: SessionUser | null,
  /** Who followed the link (its request's id, address and browser); the account is the actor. */
  actor: Actor,
): Promise<{ email: string }> {
  const { db, config } = deps;
  let changed: { oldEmail: string; email: string };
  try {
    changed = await db.transaction(async (tx) => {
      const [row] = await tx
        .select()
        .from(emailChanges)
        .where(eq(emailChanges.tokenHash, tokenHash(token)))
        .for("update");
      if (!row)
        throw new HttpProblem(400, "Bad Request", m.linkInvalid, undefined, problemCodes.emailChangeInvalid);
      if (row.expiresAt.getTime() <= Date.now()) throw gone(m.linkExpired, problemCodes.emailChangeExpired);
      const [old] = await tx
        .select({ email: users.email })
        .from(users)
        .where(eq(users.id, row.userId))
        .for("update");
      if (!old)
        throw new HttpProblem(400, "Bad Request", m.linkInvalid, undefined, problemCodes.emailChangeInvalid);
      await tx
        .update(users)
        .set({ email: row.newEmail, emailVerified: true, updatedAt: sql`now()` })
        .where(eq(users.id, row.userId));
      await tx.delete(emailChanges).where(eq(emailChanges.id, row.id));
      const keep = current?.id === row.userId ? current.sessionId : undefined;
      await tx
        .delete(sessions)
        .where(
          keep
            ? and(eq(sessions.userId, row.userId), ne(sessions.id, keep))
            : eq(sessions.userId, row.userId),
        );
      await endResetLinks(tx, { userId: row.userId });
      // A security event of the account's, on the record like its second factors.
      await recordActivity(
        tx,
        { ...actor, id: row.userId, email: old.email },
        {
          action: "user.email_changed",
          targetType: "user",
          targetId: row.userId,
          changes: { email: [old.email, row.newEmail] },
        },
      );
      return { oldEmail: old.email, email: row.newEmail };
    });
  } catch (error) {
    // user.email's unique index refusing an address another account took.
    if (violatesUnique(error, "email")) throw conflict(m.taken, problemCodes.emailTaken);
    throw error;
  }
  // Always goes (only the account's own request, with its password, and the new inbox cause it),
  // counted against the old address's hour like a receipt.
  await claimRecipient(db, changed.oldEmail, config.mail.perRecipientPerHour, { always: true });
  send(deps, changed.oldEmail, changedMail(config, changed.email, new Date()), "email-changed mail");
  return { email: changed.email };
}

/** Not awaited: the answer does not wait for the mail server (a failure is logged). */
function send(
  deps: EmailChangeDeps,
  to: string,
  mail: { subject: string; text: string; html: string },
  what: string,
) {
  deps.mailer
    .send({ to, ...mail })
    .catch((error: unknown) => deps.log.error({ err: error }, `${what} failed`));
}

const escapeHtml = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

function linkMail(link: string, hours: number) {
  const t = m.linkMail;
  return {
    subject: t.subject,
    text: `${t.lead}\n\n${t.action(hours)}\n${link}\n\n${t.notYou}`,
    html: framedMailHtml(
      `<p>${t.lead}</p><p>${t.action(hours)} <a href="${escapeHtml(link)}">${t.button}</a></p><p>${t.notYou}</p>`,
    ),
  };
}

function inUseMail(publicUrl: string) {
  const t = m.inUseMail;
  const signIn = `${publicUrl}/login`;
  const reset = `${publicUrl}/passwordReset`;
  return {
    subject: t.subject,
    text: `${t.lead}\n\n${t.ifYou}\n${t.signIn}: ${signIn}\n${t.reset}: ${reset}`,
    html: framedMailHtml(
      `<p>${t.lead}</p><p>${t.ifYou}</p><p><a href="${signIn}">${t.signIn}</a> · <a href="${reset}">${t.reset}</a></p>`,
    ),
  };
}

function changedMail(config: Config, newEmail: string, at: Date) {
  const t = m.changedMail;
  const when = `${at.toISOString().slice(0, 16).replace("T", " ")} UTC`;
  const lead = t.lead(maskedEmail(newEmail), when);
  const contact = config.seller.email;
  return {
    subject: t.subject,
    text: `${lead}\n\n${t.notYou(contact)}`,
    html: framedMailHtml(`<p>${escapeHtml(lead)}</p><p>${escapeHtml(t.notYou(contact))}</p>`),
  };
}
