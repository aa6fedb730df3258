import { z } from "zod";
import { PRODUCT_QUANTITY_MAX } from "./constants.js";
import { stockMessages as m } from "./messages/stock.js";
import { cursorQuerySchema, LIST_PAGE_SIZE } from "./paging.js";

/**
 * The stock ledger (docs/product.md, "Stock ledger"): every change of a product's stock is a
 * movement, with its reason.
 */
export const STOCK_REASONS = [
  "initial",
  "booking",
  "removal",
  "expiry",
  "refund",
  "adjustment",
  "import",
] as const;
type StockReason = (typeof STOCK_REASONS)[number];
// Every reason has its label (the messages module cannot import this one: no cycles).
m.reasons satisfies Record<StockReason, string>;

/** An adjustment's note: required, one short paragraph. */
const STOCK_NOTE_MAX_LENGTH = 500;
/** A threshold above the largest stock a product may hold would leave it low for ever. */
const LOW_STOCK_THRESHOLD_MAX = PRODUCT_QUANTITY_MAX;

const note = z
  .string({ error: m.noteRequired })
  .trim()
  .min(1, m.noteRequired)
  .max(STOCK_NOTE_MAX_LENGTH, m.noteTooLong(STOCK_NOTE_MAX_LENGTH));

const units = z.number({ error: m.unitsInvalid }).int(m.unitsInvalid);

/**
 * POST /api/products/:id/stock/adjustments: set the stock to a number, or add or take away units,
 * with the admin's note of why.
 */
export const stockAdjustmentSchema = z.discriminatedUnion(
  "mode",
  [
    z.object({
      mode: z.literal("set"),
      quantity: units.min(0, m.unitsInvalid).max(PRODUCT_QUANTITY_MAX, m.tooHigh(PRODUCT_QUANTITY_MAX)),
      note,
    }),
    z.object({
      mode: z.literal("add"),
      units: units.min(1, m.unitsInvalid).max(PRODUCT_QUANTITY_MAX, m.tooHigh(PRODUCT_QUANTITY_MAX)),
      note,
    }),
    z.object({
      mode: z.literal("remove"),
      units: units.min(1, m.unitsInvalid).max(PRODUCT_QUANTITY_MAX, m.tooHigh(PRODUCT_QUANTITY_MAX)),
      note,
    }),
  ],
  { error: m.modeInvalid },
);
export type StockAdjustment = z.input<typeof stockAdjustmentSchema>;

/** PUT /api/products/:id/stock/threshold: the product's own threshold, or null for the shop's default. */
export const lowStockThresholdSchema = z.object({
  threshold: z
    .number({ error: m.thresholdInvalid })
    .int(m.thresholdInvalid)
    .min(0, m.thresholdInvalid)
    .max(LOW_STOCK_THRESHOLD_MAX, m.thresholdInvalid)
    .nullable(),
});
export type LowStockThresholdInput = z.input<typeof lowStockThresholdSchema>;

/** GET /api/products/:id/stock: the product's stock and its low-stock threshold. */
export const productStockSchema = z.object({
  id: z.string(),
  name: z.string(),
  quantity: z.number().int(),
  /** The product's own threshold; null when it follows the shop's default. */
  lowStockThreshold: z.number().int().nullable(),
  /** The shop's default (LOW_STOCK_THRESHOLD). */
  defaultThreshold: z.number().int(),
  /** The threshold that applies: its own, or the default. */
  threshold: z.number().int(),
});
export type ProductStock = z.infer<typeof productStockSchema>;

/** One movement of the ledger, as the history lists it: who, when, why, before and after. */
const stockMovementSchema = z.object({
  id: z.string(),
  at: z.string(),
  reason: z.enum(STOCK_REASONS),
  change: z.number().int(),
  before: z.number().int(),
  after: z.number().int(),
  orderId: z.string().nullable(),
  /** The admin who made it (adjustments, imports); null for the shop's own changes or a removed account. */
  adminId: z.string().nullable(),
  adminName: z.string().nullable(),
  note: z.string().nullable(),
});
export type StockMovement = z.infer<typeof stockMovementSchema>;

/** The history's page: the `limit` of every cursor-paged list. */
export const STOCK_HISTORY_PAGE_SIZE = LIST_PAGE_SIZE;

/**
 * A page after `cursor`: the id of the last movement of the page before (newest first), a number
 * where the other lists' cursors are opaque tokens.
 */
export const stockHistoryQuerySchema = cursorQuerySchema.extend({
  cursor: z
    .string()
    .regex(/^[1-9][0-9]{0,17}$/, m.cursorInvalid)
    .optional(),
});
export type StockHistoryQuery = z.output<typeof stockHistoryQuerySchema>;

export const stockHistorySchema = z.object({
  items: z.array(stockMovementSchema),
  /** The next (older) page's cursor; null on the last. */
  nextCursor: z.string().nullable(),
});
export type StockHistory = z.infer<typeof stockHistorySchema>;

/** POST .../adjustments answers the product's stock after it and the movement it made. */
export const stockAdjustedSchema = z.object({
  stock: productStockSchema,
  movement: stockMovementSchema.nullable(),
});
export type StockAdjusted = z.infer<typeof stockAdjustedSchema>;

/** The adjustment form's fields (one number for each mode), checked like the body it becomes. */
export const stockAdjustmentFormSchema = z
  .object({
    mode: z.enum(["set", "add", "remove"], { error: m.modeInvalid }),
    amount: units.min(0, m.unitsInvalid).max(PRODUCT_QUANTITY_MAX, m.tooHigh(PRODUCT_QUANTITY_MAX)),
    note,
  })
  .refine((form) => form.mode === "set" || form.amount >= 1, { path: ["amount"], message: m.unitsInvalid });
export type StockAdjustmentForm = z.input<typeof stockAdjustmentFormSchema>;

/** The body the form's fields make. */
export function adjustmentOf(form: z.output<typeof stockAdjustmentFormSchema>): StockAdjustment {
  return form.mode === "set"
    ? { mode: "set", quantity: form.amount, note: form.note }
    : { mode: form.mode, units: form.amount, note: form.note };
}

/** The threshold form: a whole number, or empty for the shop's default. */
export const thresholdFormSchema = z.object({
  threshold: z
    .string()
    .trim()
    .regex(/^\d{0,7}$/, m.thresholdInvalid)
    .refine((text) => text === "" || Number(text) <= LOW_STOCK_THRESHOLD_MAX, m.thresholdInvalid),
});
export type ThresholdForm = z.input<typeof thresholdFormSchema>;
