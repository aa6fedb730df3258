/**
 * Discount codes and the tax settings, the admin side (docs/product.md, "Discount codes and tax
 * settings"): the bodies and answers of /api/admin/discount-codes and /api/admin/settings/tax, and
 * the admin forms' fields with the bodies they make. How a code prices a booking is pricing.ts's.
 */
import { z } from "zod";
import { CATEGORIES, MAX_ORDER_TOTAL, PRODUCT_QUANTITY_MAX } from "./constants.js";
import { discountMessages as m } from "./messages/discounts.js";
import { ORDER_STATUSES } from "./orders.js";
import { cursorPageSchema, cursorQuerySchema } from "./paging.js";
import { DISCOUNT_CODE_PATTERN, formatCents } from "./pricing.js";

const DISCOUNT_KINDS = ["percent", "amount"] as const;
/** The products one code may name (with its categories, it names where it applies). */
const DISCOUNT_CODE_MAX_PRODUCTS = 100;
/** An amount off, in cents: at most what one order may total. */
const MAX_AMOUNT_CENTS = MAX_ORDER_TOTAL * 100;
/** A limit of uses: far above any campaign, well within the 32-bit column. */
const MAX_USES = 100_000_000;

/** What a code is now, for the lists: worked out by the server from its dates, uses and end. */
const DISCOUNT_CODE_STATES = ["scheduled", "active", "used-up", "expired", "ended"] as const;
export type DiscountCodeState = (typeof DISCOUNT_CODE_STATES)[number];
// Every state has its label (the messages module cannot import this one: no cycles).
m.states satisfies Record<DiscountCodeState, string>;

const unique = (values: readonly string[]) => new Set(values).size === values.length;
const uses = z
  .number({ error: m.usesInvalid })
  .int(m.usesInvalid)
  .min(1, m.usesInvalid)
  .max(MAX_USES, m.usesInvalid)
  .nullable()
  .optional();
const instant = z.iso.datetime({ offset: true, error: m.dateInvalid }).nullable().optional();

/**
 * POST /api/admin/discount-codes: a new code. `value` is a percent (1 to 100) or cents, by `kind`.
 * Unset dates: from now, no end; no products and no categories: every product; unset limits: none.
 */
export const discountCodeInputSchema = z
  .object({
    code: z
      .string({ error: m.codeInvalid })
      .trim()
      .regex(DISCOUNT_CODE_PATTERN, m.codeInvalid)
      .toUpperCase()
      .meta({
        description: "3 to 32 of A-Z, 0-9 and dashes; kept upper case (a customer's entry matches any case).",
      }),
    kind: z.enum(DISCOUNT_KINDS, { error: m.kindInvalid }),
    value: z
      .number({ error: m.percentInvalid })
      .meta({ description: "Percent (1 to 100) for `percent`; cents for `amount`." }),
    startsAt: instant,
    endsAt: instant,
    minQuantity: z
      .number({ error: m.minQuantityInvalid(PRODUCT_QUANTITY_MAX) })
      .int(m.minQuantityInvalid(PRODUCT_QUANTITY_MAX))
      .min(1, m.minQuantityInvalid(PRODUCT_QUANTITY_MAX))
      .max(PRODUCT_QUANTITY_MAX, m.minQuantityInvalid(PRODUCT_QUANTITY_MAX))
      .optional(),
    productIds: z
      .array(z.uuid({ error: m.productsUnknown }), { error: m.productsInvalid(DISCOUNT_CODE_MAX_PRODUCTS) })
      .max(DISCOUNT_CODE_MAX_PRODUCTS, m.productsInvalid(DISCOUNT_CODE_MAX_PRODUCTS))
      .refine(unique, m.productsInvalid(DISCOUNT_CODE_MAX_PRODUCTS))
      .optional(),
    categories: z
      .array(z.enum(CATEGORIES, { error: m.categoriesInvalid }), { error: m.categoriesInvalid })
      .refine(unique, m.categoriesInvalid)
      .optional(),
    maxUses: uses,
    maxUsesPerCustomer: uses,
  })
  .superRefine((input, ctx) => {
    const max = input.kind === "amount" ? MAX_AMOUNT_CENTS : 100;
    if (!Number.isInteger(input.value) || input.value < 1 || input.value > max)
      ctx.addIssue({
        code: "custom",
        path: ["value"],
        message: input.kind === "amount" ? m.amountInvalid(formatCents(MAX_AMOUNT_CENTS)) : m.percentInvalid,
      });
    if (input.startsAt && input.endsAt && Date.parse(input.endsAt) <= Date.parse(input.startsAt))
      ctx.addIssue({ code: "custom", path: ["endsAt"], message: m.endBeforeStart });
    if (input.maxUses != null && input.maxUsesPerCustomer != null && input.maxUsesPerCustomer > input.maxUses)
      ctx.addIssue({ code: "custom", path: ["maxUsesPerCustomer"], message: m.perCustomerOverTotal });
  });
export type DiscountCodeInput = z.input<typeof discountCodeInputSchema>;
export type DiscountCodeValues = z.output<typeof discountCodeInputSchema>;

/** A code as the admin pages show it. Times are ISO 8601. */
export const discountCodeSchema = z.object({
  id: z.string(),
  code: z.string(),
  kind: z.enum(DISCOUNT_KINDS),
  value: z.number().int(),
  startsAt: z.string(),
  endsAt: z.string().nullable(),
  minQuantity: z.number().int(),
  /** The products it names, with their names today (a removed product is left out). */
  products: z.array(z.object({ id: z.string(), name: z.string() })),
  categories: z.array(z.enum(CATEGORIES)),
  maxUses: z.number().int().nullable(),
  maxUsesPerCustomer: z.number().int().nullable(),
  /** The orders holding a use now (an expired or removed order gives its use back). */
  uses: z.number().int(),
  endedAt: z.string().nullable(),
  createdAt: z.string(),
  /** The admin who made it, by email; null when that account is gone. */
  createdBy: z.string().nullable(),
  state: z.enum(DISCOUNT_CODE_STATES),
});
export type DiscountCode = z.infer<typeof discountCodeSchema>;

/** GET /api/admin/discount-codes: a page after `cursor`, newest first. */
export const discountCodeListQuerySchema = cursorQuerySchema;
export const discountCodePageSchema = cursorPageSchema(discountCodeSchema);
export type DiscountCodePage = z.infer<typeof discountCodePageSchema>;

export const discountCodeParamsSchema = z.object({ id: z.uuid({ error: m.notFound }) });

/** One order holding a use of a code, as the code's page lists it. */
const discountCodeUseSchema = z.object({
  orderId: z.string(),
  /** When the order took the use (its booking). */
  at: z.string(),
  /** The email the order was booked with. */
  email: z.string(),
  discountCents: z.number().int(),
  grossCents: z.number().int(),
  status: z.enum(ORDER_STATUSES),
});

/** GET /api/admin/discount-codes/:id: the code, and a page of its uses after `cursor`, newest first. */
export const discountCodeUsesQuerySchema = cursorQuerySchema;
const discountCodeUsesPageSchema = cursorPageSchema(discountCodeUseSchema);
export const discountCodeDetailSchema = discountCodeUsesPageSchema.extend({ code: discountCodeSchema });
export type DiscountCodeDetail = z.infer<typeof discountCodeDetailSchema>;

/** Basis points from a percentage with at most 2 decimals (8.25 -> 825), or null when it has more. */
export function basisPointsOf(percent: number): number | null {
  const bp = Math.round(percent * 100);
  return Math.abs(percent * 100 - bp) < 1e-6 ? bp : null;
}

/** PUT /api/admin/settings/tax: the rate as a percentage (0 to 100, 2 decimals at most). */
export const taxSettingsInputSchema = z.object({
  ratePercent: z
    .number({ error: m.tax.rateInvalid })
    .min(0, m.tax.rateInvalid)
    .max(100, m.tax.rateInvalid)
    .refine((percent) => basisPointsOf(percent) !== null, m.tax.rateInvalid)
    .meta({ description: "A percentage with at most 2 decimals: 8.25 is 825 basis points." }),
  pricesIncludeTax: z.boolean(),
  taxId: z
    .string({ error: m.tax.taxIdInvalid })
    .trim()
    .max(32, m.tax.taxIdInvalid)
    .regex(/^[\p{L}\p{N} .\-/]*$/u, m.tax.taxIdInvalid)
    .meta({ description: "The shop's own tax ID, printed on invoices; empty for none." }),
});
export type TaxSettingsInput = z.input<typeof taxSettingsInputSchema>;

/** GET and PUT /api/admin/settings/tax answer the settings as they are now. */
export const taxSettingsSchema = z.object({
  /** Basis points: 825 is 8.25%. */
  taxRateBp: z.number().int(),
  pricesIncludeTax: z.boolean(),
  taxId: z.string(),
  updatedAt: z.string(),
});
export type TaxSettings = z.infer<typeof taxSettingsSchema>;

// The admin forms: what the fields hold (text, as inputs give it), checked like the bodies they make.

const optionalWhole = (message: string, min: number, max: number) =>
  z
    .string()
    .trim()
    .refine(
      (text) => text === "" || (/^\d{1,9}$/.test(text) && Number(text) >= min && Number(text) <= max),
      message,
    );
const localTime = z
  .string()
  .trim()
  .refine((text) => text === "" || !Number.isNaN(new Date(text).getTime()), m.dateInvalid);
const DOLLARS = /^\d{1,6}(\.\d{1,2})?$/;

/** Cents from dollars and cents as typed ("12.5" -> 1250), without a float's rounding. */
function centsOf(dollars: string): number {
  const [whole = "0", part = ""] = dollars.trim().split(".");
  return Number(whole) * 100 + Number(part.padEnd(2, "0"));
}

export const discountCodeFormSchema = z
  .object({
    code: z.string().trim().regex(DISCOUNT_CODE_PATTERN, m.codeInvalid),
    kind: z.enum(DISCOUNT_KINDS, { error: m.kindInvalid }),
    value: z.string().trim(),
    startsAt: localTime,
    endsAt: localTime,
    minQuantity: optionalWhole(m.minQuantityInvalid(PRODUCT_QUANTITY_MAX), 1, PRODUCT_QUANTITY_MAX),
    productIds: z.array(z.string()),
    categories: z.array(z.enum(CATEGORIES)),
    maxUses: optionalWhole(m.usesInvalid, 1, MAX_USES),
    maxUsesPerCustomer: optionalWhole(m.usesInvalid, 1, MAX_USES),
  })
  .superRefine((form, ctx) => {
    if (form.kind === "percent") {
      if (!/^\d{1,3}$/.test(form.value) || Number(form.value) < 1 || Number(form.value) > 100)
        ctx.addIssue({ code: "custom", path: ["value"], message: m.percentInvalid });
    } else if (!DOLLARS.test(form.value)) {
      ctx.addIssue({ code: "custom", path: ["value"], message: m.amountFormat });
    } else if (centsOf(form.value) < 1 || centsOf(form.value) > MAX_AMOUNT_CENTS) {
      ctx.addIssue({
        code: "custom",
        path: ["value"],
        message: m.amountInvalid(formatCents(MAX_AMOUNT_CENTS)),
      });
    }
    if (form.startsAt && form.endsAt && new Date(form.endsAt) <= new Date(form.startsAt))
      ctx.addIssue({ code: "custom", path: ["endsAt"], message: m.endBeforeStart });
    if (form.maxUses && form.maxUsesPerCustomer && Number(form.maxUsesPerCustomer) > Number(form.maxUses))
      ctx.addIssue({ code: "custom", path: ["maxUsesPerCustomer"], message: m.perCustomerOverTotal });
  });
export type DiscountCodeForm = z.input<typeof discountCodeFormSchema>;

const numberOrNull = (text: string) => (text === "" ? null : Number(text));
/** A local date and time of the browser (a datetime-local field) as an instant. */
const instantOf = (text: string) => (text === "" ? null : new Date(text).toISOString());

/** The body the create form's fields make. */
export function discountCodeInputOf(form: z.output<typeof discountCodeFormSchema>): DiscountCodeInput {
  return {
    code: form.code,
    kind: form.kind,
    value: form.kind === "percent" ? Number(form.value) : centsOf(form.value),
    startsAt: instantOf(form.startsAt),
    endsAt: instantOf(form.endsAt),
    minQuantity: form.minQuantity === "" ? 1 : Number(form.minQuantity),
    productIds: form.productIds,
    categories: form.categories,
    maxUses: numberOrNull(form.maxUses),
    maxUsesPerCustomer: numberOrNull(form.maxUsesPerCustomer),
  };
}

/** The tax form: the rate as typed ("8.25"), the switch and the shop's tax ID. */
export const taxSettingsFormSchema = z.object({
  ratePercent: z
    .string()
    .trim()
    .regex(/^\d{1,3}(\.\d{1,2})?$/, m.tax.rateInvalid)
    .refine((text) => Number(text) <= 100, m.tax.rateInvalid),
  pricesIncludeTax: z.boolean(),
  taxId: taxSettingsInputSchema.shape.taxId,
});
export type TaxSettingsForm = z.input<typeof taxSettingsFormSchema>;

/** A rate in basis points as the form shows it: 825 -> "8.25", 2000 -> "20". */
export const percentTextOf = (bp: number) => (bp / 100).toFixed(2).replace(/\.?0+$/, "");
