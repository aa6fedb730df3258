import { z } from "zod";
import { activityMessages as m } from "./messages/activity.js";
import { instantSchema, rangeInOrder, reversed } from "./orders.js";
import { cursorPageSchema, cursorQuerySchema } from "./paging.js";

/**
 * The activity log (docs/product.md, "Activity log"): one row per admin action and security event,
 * written in the transaction of the action, never changed or removed (the database refuses it).
 * The actions are a fixed set: the table's check constraint is made from this list.
 */
export const ACTIVITY_ACTIONS = [
  "admin.signed_in",
  "admin.sign_in_failed",
  "user.role_changed",
  "user.removed",
  "user.sessions_ended",
  "user.factor_added",
  "user.factor_removed",
  "user.email_changed",
  "order.refunded",
  "order.shipped",
  "order.removed",
  "product.created",
  "product.updated",
  "product.archived",
  "product.restored",
  "product.deleted",
  "stock.adjusted",
  "stock.imported",
  "review.hidden",
  "review.restored",
  "backup.run",
  "discount_code.created",
  "discount_code.ended",
  "settings.tax_changed",
] as const;
export type ActivityAction = (typeof ACTIVITY_ACTIONS)[number];

/** What an entry names: the page an admin follows from it. */
export const ACTIVITY_TARGET_TYPES = [
  "user",
  "order",
  "product",
  "review",
  "backup",
  "discount_code",
] as const;
export type ActivityTargetType = (typeof ACTIVITY_TARGET_TYPES)[number];

/** The fields an action changed: each field's value before and after. */
export type ActivityChanges = Record<string, [unknown, unknown]>;

// Every action and target has its label (the messages module cannot import this one: no cycles).
m.actions satisfies Record<ActivityAction, string>;
m.targets satisfies Record<ActivityTargetType, string>;

/** One entry as the Activity page lists it; `targetName` is what the target is called today. */
const activityEntrySchema = z.object({
  id: z.string(),
  at: z.string(),
  actorId: z.string().nullable(),
  actorEmail: z.string().nullable(),
  action: z.enum(ACTIVITY_ACTIONS),
  targetType: z.enum(ACTIVITY_TARGET_TYPES).nullable(),
  targetId: z.string().nullable(),
  /** A product's name or a user's email now; null when it is gone, or for an order (its number is its id's). */
  targetName: z.string().nullable(),
  changes: z.record(z.string(), z.tuple([z.unknown(), z.unknown()])),
  requestId: z.string().nullable(),
  address: z.string().nullable(),
  userAgent: z.string().nullable(),
});
export type ActivityEntryView = z.infer<typeof activityEntrySchema>;

const ACTIVITY_TARGET_ID = /^[A-Za-z0-9_-]{1,64}$/;

const activityFilterShape = {
  actor: z.email({ error: m.actorInvalid }).max(254, m.actorInvalid).optional().meta({
    description: "The acting admin's email, as it was when they acted.",
  }),
  action: z.enum(ACTIVITY_ACTIONS).optional(),
  targetType: z.enum(ACTIVITY_TARGET_TYPES).optional(),
  targetId: z.string().trim().regex(ACTIVITY_TARGET_ID, m.targetIdInvalid).optional().meta({
    description: "The id of what an entry names (a user's, an order's, a product's); needs `targetType`.",
  }),
  from: instantSchema
    .optional()
    .meta({ description: "Entries at or after this instant (a date means its midnight UTC)." }),
  to: instantSchema
    .optional()
    .meta({ description: "Entries before this instant (a date means its midnight UTC)." }),
};
type FilterFields = { targetType?: string | undefined; targetId?: string | undefined };
const targetWithType = (f: FilterFields) => f.targetId === undefined || f.targetType !== undefined;
const needsType = { error: m.targetIdNeedsType, path: ["targetType"] };

/** GET /api/admin/activity.csv: the page's filter. */
export const activityFilterSchema = z
  .object(activityFilterShape)
  .refine(rangeInOrder, reversed)
  .refine(targetWithType, needsType);
export type ActivityFilter = z.output<typeof activityFilterSchema>;

/** GET /api/admin/activity: a page after `cursor`, newest first, filtered. */
export const activityQuerySchema = cursorQuerySchema
  .extend(activityFilterShape)
  .refine(rangeInOrder, reversed)
  .refine(targetWithType, needsType);
export type ActivityQuery = z.output<typeof activityQuerySchema>;

export const activityPageSchema = cursorPageSchema(activityEntrySchema);
export type ActivityPage = z.infer<typeof activityPageSchema>;
