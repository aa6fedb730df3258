import { sql } from "drizzle-orm";
import { bigserial, check, index, jsonb, pgTable, text } from "drizzle-orm/pg-core";
import { ACTIVITY_ACTIONS, ACTIVITY_TARGET_TYPES, type ActivityChanges } from "../../../shared/activity.js";
import { createdAt } from "./columns.js";

const known = (column: string, values: readonly string[]) =>
  sql.raw(`"activity_log"."${column}" in (${values.map((v) => `'${v}'`).join(", ")})`);

/**
 * The activity log: one row per admin action and security event, written in the transaction of
 * the action (features/activity/record.ts). Append-only: triggers of migration 0021 refuse UPDATE,
 * DELETE and TRUNCATE, and PUBLIC may not do them. The actor has no foreign key: the row keeps the
 * actor's id and email as they were when a removed account is gone. Read newest first by keyset
 * (created_at desc, id desc), alone or behind one filter, each with its index: the actor by email,
 * as it was when they acted (a removed admin's entries are found too).
 */
export const activityLog = pgTable(
  "activity_log",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    at: createdAt(),
    /** Null for a failed sign-in: nobody signed in. */
    actorId: text("actor_id"),
    actorEmail: text("actor_email"),
    action: text("action", { enum: ACTIVITY_ACTIONS }).notNull(),
    targetType: text("target_type", { enum: ACTIVITY_TARGET_TYPES }),
    targetId: text("target_id"),
    changes: jsonb("changes").$type<ActivityChanges>().notNull().default({}),
    requestId: text("request_id"),
    address: text("address"),
    userAgent: text("user_agent"),
  },
  (t) => [
    check("activity_log_action_known", known("action", ACTIVITY_ACTIONS)),
    check("activity_log_target_known", known("target_type", ACTIVITY_TARGET_TYPES)),
    index("activity_log_at_idx").on(t.at, t.id),
    index("activity_log_actor_idx").on(t.actorEmail, t.at, t.id),
    index("activity_log_action_idx").on(t.action, t.at, t.id),
    index("activity_log_target_idx").on(t.targetType, t.targetId, t.at, t.id),
  ],
);
