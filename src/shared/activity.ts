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
  "user.factor_added",
  "user.factor_removed",
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
] as const;
export type ActivityAction = (typeof ACTIVITY_ACTIONS)[number];

/** What an entry names: the page an admin follows from it. */
export const ACTIVITY_TARGET_TYPES = ["user", "order", "product", "review", "backup"] as const;
export type ActivityTargetType = (typeof ACTIVITY_TARGET_TYPES)[number];

/** The fields an action changed: each field's value before and after. */
export type ActivityChanges = Record<string, [unknown, unknown]>;
