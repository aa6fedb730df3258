import { and, asc, eq, ilike, or, type SQL } from "drizzle-orm";
import type { Role } from "../../../shared/accounts.js";
import { userMessages } from "../../../shared/messages/users.js";
import {
  USER_SEARCH_SUBSTRING_MIN,
  type User,
  type UserListParams,
  type UserPage,
} from "../../../shared/users.js";
import type { Db, Tx } from "../../db/client.js";
import { users } from "../../db/schema/index.js";
import { countedPage, decodePosition } from "../../lib/keyset.js";
import { escapeLike } from "../../lib/like.js";
import { conflict, notFound } from "../../lib/problem.js";
import { type Actor, changesOf, recordActivity } from "../activity/index.js";

const columns = {
  id: users.id,
  name: users.name,
  email: users.email,
  phone: users.phone,
  role: users.role,
  createdAt: users.createdAt,
};

function toUser(row: { createdAt: Date } & Omit<User, "createdAt">): User {
  return { ...row, createdAt: row.createdAt.toISOString() };
}

/**
 * The users a search finds: anywhere in the name or email from USER_SEARCH_SUBSTRING_MIN characters
 * on, otherwise at the start of the name, of a word in it, or of the email. The trigram indexes on
 * both columns (migration 0003) serve either kind of pattern.
 */
function searchMatch(search: string): SQL | undefined {
  const term = escapeLike(search);
  if (search.length >= USER_SEARCH_SUBSTRING_MIN)
    return or(ilike(users.name, `%${term}%`), ilike(users.email, `%${term}%`));
  return or(ilike(users.name, `${term}%`), ilike(users.name, `% ${term}%`), ilike(users.email, `${term}%`));
}

/**
 * One page of the users, newest accounts first, with how many match (exact up to 10,000). Every
 * page is one walk of an index from its cursor: (created_at, id), or (role, created_at, id) for a
 * role; a search reads the trigram indexes when it matches few users, the first otherwise.
 */
export async function listUsers(db: Db, query: UserListParams): Promise<UserPage> {
  const position = decodePosition(query);
  const filter = and(
    query.role ? eq(users.role, query.role) : undefined,
    query.search ? searchMatch(query.search) : undefined,
  );
  const [page, total] = await countedPage(db, users, columns, filter, position, query.limit);
  return {
    items: page.rows.map(({ cursorAt: _, ...row }) => toUser(row)),
    nextCursor: page.nextCursor,
    prevCursor: page.prevCursor,
    total,
  };
}

/**
 * Locks every admin row (in id order, so two admins acting at once queue instead of deadlocking)
 * and then the target's row. Whoever removes or demotes an admin holds these locks until commit,
 * so two concurrent requests can never leave the shop without an admin. Returns the target and
 * whether another admin would remain without it.
 */
async function lockTarget(tx: Tx, id: string) {
  const admins = await tx
    .select({ id: users.id })
    .from(users)
    .where(eq(users.role, "admin"))
    .orderBy(asc(users.id))
    .for("update");
  const [target] = await tx.select(columns).from(users).where(eq(users.id, id)).for("update");
  if (!target) throw notFound(userMessages.notFound);
  return { target, otherAdmins: admins.filter((a) => a.id !== id).length };
}

/**
 * Removes an account. Its sessions and sign-in accounts go with it (ON DELETE CASCADE), so its
 * cookie is refused on the next request; its orders and reviews stay as records (SET NULL), the
 * orders keeping the name and email they were placed with.
 */
export async function removeUser(db: Db, actorId: string, id: string, actor?: Actor): Promise<void> {
  if (id === actorId) throw conflict(userMessages.cannotRemoveSelf);
  await db.transaction(async (tx) => {
    const { target, otherAdmins } = await lockTarget(tx, id);
    if (target.role === "admin" && otherAdmins === 0) throw conflict(userMessages.lastAdminRemove);
    await tx.delete(users).where(eq(users.id, id));
    if (actor) {
      // The account is gone: its entry keeps what it was.
      const changes = changesOf(target as Record<string, unknown>, {}, ["email", "name", "role"]);
      await recordActivity(tx, actor, { action: "user.removed", targetType: "user", targetId: id, changes });
    }
  });
}

/** Makes a user admin or takes the role away; the last admin keeps it. */
export async function setRole(db: Db, id: string, role: Role, actor?: Actor): Promise<User> {
  return db.transaction(async (tx) => {
    const { target, otherAdmins } = await lockTarget(tx, id);
    if (role === "user" && target.role === "admin" && otherAdmins === 0)
      throw conflict(userMessages.lastAdminDemote);
    if (target.role === role) return toUser(target);
    const [row] = await tx
      .update(users)
      .set({ role, updatedAt: new Date() })
      .where(eq(users.id, id))
      .returning(columns);
    if (!row) throw notFound(userMessages.notFound);
    if (actor) {
      const changes = { role: [target.role, role] as [unknown, unknown] };
      await recordActivity(tx, actor, {
        action: "user.role_changed",
        targetType: "user",
        targetId: id,
        changes,
      });
    }
    return toUser(row);
  });
}
