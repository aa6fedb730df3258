import { and, count, desc, eq, gt, lt, ne, sql } from "drizzle-orm";
import { sessionMessages as m } from "../../../shared/messages/sessions.js";
import { userMessages } from "../../../shared/messages/users.js";
import { SESSION_LIST_LIMIT, type SessionList } from "../../../shared/sessions.js";
import type { Db } from "../../db/client.js";
import { sessions, users } from "../../db/schema/index.js";
import { conflict, notFound } from "../../lib/problem.js";
import { type Actor, recordActivity } from "../activity/index.js";
import { browserName } from "./browser-name.js";

/**
 * Signed-in sessions (docs/product.md, "Sessions"): a user lists theirs and ends one or all others;
 * an admin ends all of a user's. A session is a row of better-auth's session table; ending one
 * deletes it, and better-auth then refuses its cookie at the next request (no cookie cache).
 */

/** How stale a session's last use may be before a request writes it again. */
const LAST_SEEN_STEP_MS = 5 * 60_000;

/**
 * Writes the session's last use, at most once in LAST_SEEN_STEP_MS: a signed-in request writes
 * nothing while its session was seen in the last five minutes, so a busy customer costs one update
 * in five minutes, not one per request. better-auth's own refresh (a day) goes by expires_at.
 */
export async function touchSession(db: Db, id: string, updatedAt: Date): Promise<void> {
  if (Date.now() - updatedAt.getTime() < LAST_SEEN_STEP_MS) return;
  await db
    .update(sessions)
    .set({ updatedAt: sql`now()` })
    .where(and(eq(sessions.id, id), lt(sessions.updatedAt, sql`now() - interval '1 minute'`)));
}

const live = (userId: string) => and(eq(sessions.userId, userId), gt(sessions.expiresAt, sql`now()`));

/** The user's sessions still signed in, last used first (SESSION_LIST_LIMIT of them), and how many. */
export async function listSessions(db: Db, userId: string, currentId: string): Promise<SessionList> {
  const [rows, [total]] = await Promise.all([
    db
      .select({
        id: sessions.id,
        userAgent: sessions.userAgent,
        address: sessions.ipAddress,
        lastSeenAt: sessions.updatedAt,
        signedInAt: sessions.createdAt,
      })
      .from(sessions)
      .where(live(userId))
      .orderBy(desc(sessions.updatedAt), desc(sessions.id))
      .limit(SESSION_LIST_LIMIT),
    db.select({ n: count() }).from(sessions).where(live(userId)),
  ]);
  return {
    items: rows.map((row) => ({
      id: row.id,
      browser: browserName(row.userAgent),
      address: row.address,
      lastSeenAt: row.lastSeenAt.toISOString(),
      signedInAt: row.signedInAt.toISOString(),
      current: row.id === currentId,
    })),
    total: total?.n ?? 0,
  };
}

/** Ends one of the user's own sessions; the one in use is ended by signing out (409). */
export async function endSession(db: Db, userId: string, currentId: string, id: string): Promise<void> {
  if (id === currentId) throw conflict(m.current);
  const ended = await db
    .delete(sessions)
    .where(and(eq(sessions.id, id), eq(sessions.userId, userId)))
    .returning({ id: sessions.id });
  if (ended.length === 0) throw notFound(m.notFound);
}

/** Ends every session of the user but the one in use; how many it ended. */
export async function endOtherSessions(db: Db, userId: string, currentId: string): Promise<number> {
  const ended = await db
    .delete(sessions)
    .where(and(eq(sessions.userId, userId), ne(sessions.id, currentId)))
    .returning({ id: sessions.id });
  return ended.length;
}

/** An admin ends every session of a user (their own included, if they choose so), on the record. */
export async function endUserSessions(db: Db, actor: Actor, userId: string): Promise<number> {
  return db.transaction(async (tx) => {
    const [user] = await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for("update");
    if (!user) throw notFound(userMessages.notFound);
    const ended = await tx.delete(sessions).where(eq(sessions.userId, userId)).returning({ id: sessions.id });
    await recordActivity(tx, actor, {
      action: "user.sessions_ended",
      targetType: "user",
      targetId: userId,
      changes: { sessions: [ended.length, 0] },
    });
    return ended.length;
  });
}
