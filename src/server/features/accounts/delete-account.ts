import { and, eq } from "drizzle-orm";
import { type DeleteAccountInput, FRESH_SIGN_IN_MINUTES } from "../../../shared/account-deletion.js";
import { accountDeletionMessages as m } from "../../../shared/messages/account-deletion.js";
import type { Db } from "../../db/client.js";
import { accounts, reviews, sessions, users, verifications } from "../../db/schema/index.js";
import { framedMailHtml } from "../../lib/mail-frame.js";
import { badRequest, conflict, forbidden, notFound } from "../../lib/problem.js";
import { enforceRateLimit } from "../../lib/rate-limit.js";
import { provedRecently, type SessionUser, stepUpProblem } from "../../plugins/session.js";
import { type CatalogCache, changeCatalog } from "../catalog/index.js";
import { removeUnpaidOrdersOf } from "../orders/index.js";
import type { Auth } from "./auth.js";
import { hasSecondFactor, passwordMatches } from "./second-factor.js";

/**
 * A customer deletes their own account (issue 34, item 4; docs/product.md, "Deleting your
 * account"). What goes and what stays:
 *
 * - unpaid orders are removed as the customer's own Remove removes them (units back to stock, the
 *   discount code's use freed), and their payment intents cancelled after commit by the caller;
 * - paid, shipped, refunded and expired orders stay untouched, with their invoices and credit
 *   notes: the tax law keeps them, and a document rendered again must read as it did when issued
 *   (the name, email, address, phone and company are printed from the order row). Their user_id
 *   becomes null (ON DELETE SET NULL), so they belong to nobody: no later sign-up with the same
 *   address sees them, and the outbox sends no more mail about them (no verified account vouches
 *   for the address);
 * - reviews stay on the products but signed "Former customer", with no account behind them;
 * - everything else personal goes with the user row (ON DELETE CASCADE): profile, sessions,
 *   passkeys, the authenticator app, sign-in accounts and their password hash, back-in-stock
 *   subscriptions, a pending email change, reports of reviews, the upload quota and idempotency
 *   keys; and here, the verification rows whose value is the account's id (reset links, an admin
 *   grant, a sign-in waiting for its second step), which have no foreign key.
 */

/** The proofs a deletion takes, checked before anything changes; a refusal changes nothing. */
export async function checkDeletion(
  db: Db,
  auth: Auth,
  user: SessionUser,
  input: DeleteAccountInput,
  limit: { max: number; windowSeconds: number },
): Promise<void> {
  // Refused first, whatever the password: an admin's account is the shop's, not only theirs, and
  // the last admin must never go. Another admin takes the role away, then the person may leave.
  if (user.role === "admin") throw conflict(m.adminRefused);
  // Password guesses with a stolen session count per account, like change-password's.
  await enforceRateLimit(db, `delete-account:user:${user.id}`, limit, m.rateLimited);
  const [credential] = await db
    .select({ id: accounts.id })
    .from(accounts)
    .where(and(eq(accounts.userId, user.id), eq(accounts.providerId, "credential")))
    .limit(1);
  if (credential) {
    if (input.password === undefined)
      throw badRequest(m.passwordRequired, [{ path: "password", message: m.passwordRequired }]);
    if (!(await passwordMatches(db, auth, user.id, input.password)))
      throw badRequest(m.passwordInvalid, [{ path: "password", message: m.passwordInvalid }]);
  } else if (!(await signedInRecently(db, user.sessionId))) {
    // No password to ask (Google sign-in only): the proof is a sign-in made moments ago, which
    // Google itself checked, so a session left open on a shared computer cannot delete the account.
    throw forbidden(m.freshSignInRequired);
  }
  // The second factor, where the account has one: the session must have proved it in the last 10
  // minutes, as an admin's irreversible actions must (403 step-up-required; the client's step-up
  // dialog asks for a code, a backup code or a passkey, then sends the request again).
  if ((await hasSecondFactor(db, user)) && !provedRecently(user)) throw stepUpProblem();
}

/** Whether the session was made (a sign-in) within FRESH_SIGN_IN_MINUTES. */
async function signedInRecently(db: Db, sessionId: string): Promise<boolean> {
  const [row] = await db
    .select({ createdAt: sessions.createdAt })
    .from(sessions)
    .where(eq(sessions.id, sessionId))
    .limit(1);
  return row !== undefined && Date.now() - row.createdAt.getTime() <= FRESH_SIGN_IN_MINUTES * 60 * 1000;
}

/**
 * Deletes the account in one transaction (see above) and returns the unpaid orders it removed,
 * whose payment intents the caller cancels once it has committed, and the address it had.
 */
export async function deleteAccount(
  db: Db,
  cache: CatalogCache,
  userId: string,
): Promise<{ removedOrders: string[]; email: string }> {
  return changeCatalog(cache, (change) =>
    db.transaction(async (tx) => {
      // The row locked first: a concurrent promotion to admin (features/users, which locks it too)
      // either committed before, and the deletion is refused, or waits and finds it gone.
      const [account] = await tx
        .select({ email: users.email, role: users.role })
        .from(users)
        .where(eq(users.id, userId))
        .for("update");
      if (!account) throw notFound();
      if (account.role === "admin") throw conflict(m.adminRefused);
      const removedOrders = await removeUnpaidOrdersOf(tx, userId, change);
      await tx
        .update(reviews)
        .set({ name: m.formerCustomer, userId: null })
        .where(eq(reviews.userId, userId));
      await tx.delete(verifications).where(eq(verifications.value, userId));
      await tx.delete(users).where(eq(users.id, userId));
      return { removedOrders, email: account.email };
    }),
  );
}

/** To the address once its account is gone: the owner learns of it, and what the shop keeps. */
export function accountDeletedMail(publicUrl: string, at: Date) {
  const when = `${at.toISOString().slice(0, 16).replace("T", " ")} UTC`;
  const signUp = `${publicUrl}/registration`;
  return {
    subject: m.mail.subject,
    text: `${m.mail.lead(when)}\n\n${m.mail.kept}\n\n${m.mail.again}\n${signUp}`,
    html: framedMailHtml(
      `<p>${m.mail.lead(when)}</p><p>${m.mail.kept}</p><p>${m.mail.again} <a href="${signUp}">${signUp}</a></p>`,
    ),
  };
}
