import { and, asc, eq, gt, ne, sql } from "drizzle-orm";
import { secondFactorMessages as m } from "../../../shared/messages/second-factor.js";
import type { Factors } from "../../../shared/second-factor.js";
import type { Db } from "../../db/client.js";
import {
  accounts,
  passkeys,
  rateLimits,
  sessions,
  twoFactors,
  users,
  verifications,
} from "../../db/schema/index.js";
import { badRequest } from "../../lib/problem.js";
import { enforceRateLimit, hitRateLimit } from "../../lib/rate-limit.js";
import type { SessionUser } from "../../plugins/session.js";
import type { Auth } from "./auth.js";

/**
 * Second factors (docs/product.md, "Second factors"): better-auth's two-factor plugin (an
 * authenticator app and backup codes) and its passkey plugin do the cryptography; this module
 * holds what the shop adds around them: which session proved a factor and when (session
 * .second_factor_at, read by the admin guard and the step-up), a limit of codes per account,
 * codes refused once used, and the list a profile shows.
 */

/** Codes an account may try in FACTOR_TRIES_WINDOW, at sign-in and in a step-up together. */
export const FACTOR_TRIES = 10;
const FACTOR_TRIES_WINDOW = 15 * 60;
/**
 * How long a used code stays refused: it is accepted in its own 30-second step and one step
 * either side (better-auth's window), so 90 seconds after its first use it is stale anyway.
 */
const USED_CODE_SECONDS = 90;

/** Whether the account has a factor to prove: an authenticator app, or a passkey. */
export async function hasSecondFactor(db: Db, user: Pick<SessionUser, "id" | "twoFactorEnabled">) {
  if (user.twoFactorEnabled) return true;
  const [row] = await db
    .select({ id: passkeys.id })
    .from(passkeys)
    .where(eq(passkeys.userId, user.id))
    .limit(1);
  return row !== undefined;
}

/** The value of cookie `name` (any prefix, as __Secure-) in a Cookie header, decoded; or null. */
function cookieValue(header: string | undefined, name: string): string | null {
  for (const part of (header ?? "").split(";")) {
    const at = part.indexOf("=");
    if (at < 0) continue;
    const key = part.slice(0, at).trim();
    if (key === name || key.endsWith(`.${name}`)) {
      try {
        return decodeURIComponent(part.slice(at + 1).trim());
      } catch {
        return null;
      }
    }
  }
  return null;
}

/** A signed cookie's value without its signature ("value.signature"). */
const unsigned = (value: string) => {
  const dot = value.lastIndexOf(".");
  return dot > 0 ? value.slice(0, dot) : value;
};

/**
 * Whose sign-in waits for its second step: the account of the challenge better-auth's short-lived
 * cookie names (a random identifier, looked up like better-auth looks it up), or null.
 */
export async function pendingSignInUser(db: Db, cookieHeader: string | undefined, cookieName: string) {
  const value = cookieValue(cookieHeader, cookieName);
  if (!value) return null;
  const [row] = await db
    .select({ userId: verifications.value })
    .from(verifications)
    .where(and(eq(verifications.identifier, unsigned(value)), gt(verifications.expiresAt, sql`now()`)))
    .limit(1);
  return row?.userId ?? null;
}

/** Counts a code tried for the account; a 429 once FACTOR_TRIES fall in 15 minutes. */
export const limitFactorTries = (db: Db, userId: string) =>
  enforceRateLimit(
    db,
    `second-factor:${userId}`,
    { max: FACTOR_TRIES, windowSeconds: FACTOR_TRIES_WINDOW },
    m.tooManyTries,
  );

const usedCodeKey = (userId: string, code: string) => `second-factor-used:${userId}:${code}`;

/**
 * Claims an app code for the account before it is checked: a code already claimed in the last 90
 * seconds (by this request's twin, or a replay) is refused. One upsert, so two requests with the
 * same code cannot both pass; a wrong code gives its claim back (releaseCode).
 */
export async function claimCode(db: Db, userId: string, code: string): Promise<void> {
  const hit = await hitRateLimit(db, usedCodeKey(userId, code), 1, USED_CODE_SECONDS);
  if (!hit.allowed) throw badRequest(m.codeUsed, [{ path: "code", message: m.codeUsed }]);
}

export async function releaseCode(db: Db, userId: string, code: string): Promise<void> {
  await db.delete(rateLimits).where(eq(rateLimits.key, usedCodeKey(userId, code)));
}

/** The session token a better-auth answer set (a new session), from its Set-Cookie; or null. */
export function newSessionToken(response: Response): string | null {
  for (const cookie of response.headers.getSetCookie()) {
    const pair = cookie.split(";")[0] ?? "";
    const at = pair.indexOf("=");
    if (at < 0 || !pair.slice(0, at).endsWith(".session_token")) continue;
    const value = cookieValue(pair, pair.slice(0, at));
    if (value) return unsigned(value);
  }
  return null;
}

/** The session (by token, or by id) proved a second factor now: which one it is, or null if gone. */
export async function markProved(db: Db, session: { token: string } | { id: string }) {
  const where = "token" in session ? eq(sessions.token, session.token) : eq(sessions.id, session.id);
  const [row] = await db
    .update(sessions)
    .set({ secondFactorAt: sql`now()` })
    .where(where)
    .returning({ id: sessions.id, userId: sessions.userId });
  return row ?? null;
}

/** The session of this token, if it is the user's. */
export async function sessionOfToken(db: Db, token: string) {
  const [row] = await db
    .select({ id: sessions.id, userId: sessions.userId })
    .from(sessions)
    .where(eq(sessions.token, token))
    .limit(1);
  return row ?? null;
}

/** Ends one session (a step-up by passkey made its successor). */
export async function dropSession(db: Db, id: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.id, id));
}

/** better-auth's short-lived cookie of a sign-in waiting for its second step (its name, unprefixed). */
export const TWO_FACTOR_COOKIE = "two_factor";

/** Ends every session of the user but `keepId`: a factor removed signs the others out. */
export async function endSessionsBut(db: Db, userId: string, keepId: string): Promise<void> {
  await db.delete(sessions).where(and(eq(sessions.userId, userId), ne(sessions.id, keepId)));
}

/** Checks the account's password with better-auth's own hasher (a factor removal's proof). */
export async function passwordMatches(
  db: Db,
  auth: Auth,
  userId: string,
  password: string,
): Promise<boolean> {
  const [row] = await db
    .select({ hash: accounts.password })
    .from(accounts)
    .where(and(eq(accounts.userId, userId), eq(accounts.providerId, "credential")))
    .limit(1);
  if (!row?.hash) return false;
  return (await auth.$context).password.verify({ hash: row.hash, password });
}

/** Removes the account's authenticator app (after the caller checked a proof). */
export async function removeApp(db: Db, userId: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const removed = await tx
      .delete(twoFactors)
      .where(eq(twoFactors.userId, userId))
      .returning({ id: twoFactors.id });
    await tx.update(users).set({ twoFactorEnabled: false }).where(eq(users.id, userId));
    return removed.length > 0;
  });
}

/** What a profile shows: the app (and how many backup codes are left), and the passkeys. */
export async function listFactors(db: Db, auth: Auth, user: SessionUser): Promise<Factors> {
  const [app, keys, password] = await Promise.all([
    db
      .select({ verified: twoFactors.verified })
      .from(twoFactors)
      .where(eq(twoFactors.userId, user.id))
      .limit(1),
    db
      .select({
        id: passkeys.id,
        name: passkeys.name,
        createdAt: passkeys.createdAt,
        deviceType: passkeys.deviceType,
      })
      .from(passkeys)
      .where(eq(passkeys.userId, user.id))
      .orderBy(asc(passkeys.createdAt), asc(passkeys.id))
      .limit(50),
    db
      .select({ id: accounts.id })
      .from(accounts)
      .where(and(eq(accounts.userId, user.id), eq(accounts.providerId, "credential")))
      .limit(1),
  ]);
  const enabled = user.twoFactorEnabled && app[0]?.verified === true;
  let backupCodesLeft = 0;
  if (enabled) {
    const codes = await auth.api.viewBackupCodes({ body: { userId: user.id } });
    backupCodesLeft = codes.backupCodes.length;
  }
  return {
    app: { enabled, backupCodesLeft },
    passkeys: keys.map((k) => ({
      id: k.id,
      name: k.name ?? "",
      createdAt: (k.createdAt ?? new Date(0)).toISOString(),
      deviceType: k.deviceType,
    })),
    hasPassword: password.length > 0,
    provedAt: user.secondFactorAt?.toISOString() ?? null,
  };
}
