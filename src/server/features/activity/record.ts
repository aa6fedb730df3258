import type { FastifyRequest } from "fastify";
import type { ActivityAction, ActivityChanges, ActivityTargetType } from "../../../shared/activity.js";
import type { Db, Tx } from "../../db/client.js";
import { activityLog } from "../../db/schema/index.js";

/** Who acts, and from where: taken from the request once, carried into the service that acts. */
export interface Actor {
  id: string | null;
  email: string | null;
  requestId: string | null;
  address: string | null;
  userAgent: string | null;
}

/** The actor of a request: its signed-in user (an admin route's), its id, address and browser. */
export function actorOf(
  request: FastifyRequest,
  user: { id: string; email: string } | null = request.user,
): Actor {
  const agent = request.headers["user-agent"];
  return {
    id: user?.id ?? null,
    email: user?.email ?? null,
    requestId: String(request.id),
    address: request.ip,
    userAgent: typeof agent === "string" ? agent.slice(0, 500) : null,
  };
}

export interface ActivityEntry {
  action: ActivityAction;
  targetType?: ActivityTargetType;
  targetId?: string | null;
  changes?: ActivityChanges;
}

/**
 * Writes one entry of the activity log. Called with the transaction of the action it records, so
 * an action that rolls back leaves no entry and a committed one always has its entry.
 */
export async function recordActivity(tx: Db | Tx, actor: Actor, entry: ActivityEntry): Promise<void> {
  await tx.insert(activityLog).values({
    actorId: actor.id,
    actorEmail: actor.email,
    action: entry.action,
    targetType: entry.targetType ?? null,
    targetId: entry.targetId ?? null,
    changes: entry.changes ?? {},
    requestId: actor.requestId,
    address: actor.address,
    userAgent: actor.userAgent,
  });
}

/**
 * The fields of `after` whose value differs from `before`'s, each as [before, after] (compared as
 * JSON, so dates and numbers compare by value). Fields the action did not touch are left out.
 */
export function changesOf<T extends Record<string, unknown>>(
  before: Partial<T> | null,
  after: Partial<T>,
  fields: readonly (keyof T & string)[] = Object.keys(after) as (keyof T & string)[],
): ActivityChanges {
  const changes: ActivityChanges = {};
  for (const field of fields) {
    const was = before?.[field] ?? null;
    const now = after[field] ?? null;
    if (JSON.stringify(was) !== JSON.stringify(now)) changes[field] = [was, now];
  }
  return changes;
}
