/**
 * Prices (docs/product.md, "Prices"): volume tiers, discount codes, tax and the buyer's company.
 * The server books with the same rules in SQL (tier_price and order_amounts, migration 0024); the
 * functions here give the booking form its live figures, and pricing.test.ts holds both together.
 */
import { z } from "zod";
import { MAX_ORDER_TOTAL, MIN_ORDER_QUANTITY } from "./constants.js";
import { formatPrice } from "./format.js";
import { pricingMessages as m } from "./messages/pricing.js";

export const MAX_PRICE_TIERS = 10;

export interface PriceTier {
  /** From this many units… */
  min: number;
  /** …each costs this many whole dollars. */
  price: number;
}

/** Whole units; a tier for fewer than MIN_ORDER_QUANTITY would apply to no order. */
const TIER_MIN_MAX = 1_000_000;
/** Whole dollars, as a product's list price. */
const TIER_PRICE_MAX = 100_000;

const tierMinInvalid = m.tiers.minInvalid(MIN_ORDER_QUANTITY, TIER_MIN_MAX);
const tierPriceInvalid = m.tiers.priceInvalid(TIER_PRICE_MAX);
const tierSchema = z.object(
  {
    min: z
      .number({ error: tierMinInvalid })
      .int(tierMinInvalid)
      .min(MIN_ORDER_QUANTITY, tierMinInvalid)
      .max(TIER_MIN_MAX, tierMinInvalid),
    price: z
      .number({ error: tierPriceInvalid })
      .int(tierPriceInvalid)
      .min(1, tierPriceInvalid)
      .max(TIER_PRICE_MAX, tierPriceInvalid),
  },
  { error: m.tiers.invalid },
);

/**
 * Tiers, ascending by quantity, each cheaper than the one before (the list price before the first),
 * none for fewer units than the smallest order. Each issue names its tier and field
 * ("priceTiers.1.price"), so a form shows it beside the input.
 */
export const priceTiersSchema = z
  .array(tierSchema, { error: m.tiers.invalid })
  .max(MAX_PRICE_TIERS, m.tiers.tooMany(MAX_PRICE_TIERS))
  .superRefine((tiers, ctx) => {
    tiers.forEach((t, i) => {
      const before = tiers[i - 1];
      if (!before) return;
      if (!(t.min > before.min))
        ctx.addIssue({ code: "custom", path: [i, "min"], message: m.tiers.notAscending });
      else if (!(t.price < before.price))
        ctx.addIssue({ code: "custom", path: [i, "price"], message: m.tiers.notCheaper });
    });
  });

/** Whether tiers fit a list price: every tier below it. */
export const tiersBelowPrice = (tiers: readonly PriceTier[], price: number) =>
  tiers.every((t) => t.price < price);

/** Where tiers do not fit a list price: each tier at or above it, as an issue at its price. */
export function tiersAbovePrice(
  tiers: readonly PriceTier[],
  price: number,
): { path: (string | number)[]; message: string }[] {
  return tiers.flatMap((t, i) =>
    t.price < price
      ? []
      : [{ path: ["priceTiers", i, "price"], message: m.tiers.notBelowList(formatPrice(price)) }],
  );
}

/**
 * A product's fields checked together (its schemas' superRefine): every tier below the list price.
 * Only when both are given; a change of one alone is checked against the other as stored.
 */
export function checkTiersBelowPrice(
  product: { price?: number | undefined; priceTiers?: readonly PriceTier[] | undefined },
  ctx: { addIssue(issue: { code: "custom"; path: (string | number)[]; message: string }): void },
): void {
  if (product.price === undefined || !product.priceTiers) return;
  for (const issue of tiersAbovePrice(product.priceTiers, product.price))
    ctx.addIssue({ code: "custom", ...issue });
}

/** The unit price for a quantity: the tier with the largest minimum at or below it, else the list price. */
export function tierPrice(listPrice: number, tiers: readonly PriceTier[], units: number): number {
  let price = listPrice;
  let best = -1;
  for (const t of tiers) {
    if (t.min <= units && t.min > best) {
      best = t.min;
      price = t.price;
    }
  }
  return price;
}

type DiscountKind = "percent" | "amount";
export interface Discount {
  kind: DiscountKind;
  /** Percent (1 to 100) or cents, by kind. */
  value: number;
}

export interface TaxRule {
  /** Basis points: 825 is 8.25%. */
  rateBp: number;
  pricesIncludeTax: boolean;
}

export interface Amounts {
  discountCents: number;
  netCents: number;
  taxCents: number;
  grossCents: number;
}

/** a / b rounded half up, for a >= 0 and b > 0 (exact for integers well within 2^53). */
const halfUp = (a: number, b: number) => Math.floor((2 * a + b) / (2 * b));

/**
 * An order's amounts in cents from its line (unit price × quantity, in cents): the discount, never
 * leaving less than `minCharge`; then on the rest the tax, rounded half up to the cent, added to it
 * (prices without tax) or taken out of it (prices with tax). net + tax = gross, always.
 */
export function orderAmounts(
  lineCents: number,
  discount: Discount | null,
  tax: TaxRule,
  minCharge: number,
): Amounts {
  const wanted = !discount
    ? 0
    : discount.kind === "percent"
      ? halfUp(lineCents * discount.value, 100)
      : discount.value;
  const discountCents = Math.max(0, Math.min(wanted, lineCents - minCharge));
  const rest = lineCents - discountCents;
  if (tax.pricesIncludeTax) {
    const netCents = halfUp(rest * 10000, 10000 + tax.rateBp);
    return { discountCents, netCents, taxCents: rest - netCents, grossCents: rest };
  }
  const taxCents = halfUp(rest * tax.rateBp, 10000);
  return { discountCents, netCents: rest, taxCents, grossCents: rest + taxCents };
}

/** Cents as the shop shows them: "$1,299.50", or "$1,299.00". */
export function formatCents(cents: number): string {
  const negative = cents < 0;
  const abs = Math.abs(Math.round(cents));
  const dollars = String(Math.floor(abs / 100)).replace(/\B(?=(\d{3})+$)/g, ",");
  return `${negative ? "-" : ""}$${dollars}.${String(abs % 100).padStart(2, "0")}`;
}

/** A rate in basis points as a percentage: 825 -> "8.25%", 2000 -> "20%". */
export const formatRate = (bp: number) => `${(bp / 100).toFixed(2).replace(/\.?0+$/, "")}%`;

export const DISCOUNT_CODE_PATTERN = /^[A-Za-z0-9-]{3,32}$/;

/** A code as a customer types it: trimmed, any case. */
export const discountCodeEntrySchema = z.string().trim().regex(DISCOUNT_CODE_PATTERN, m.code.invalidFormat);

export const companyNameSchema = z.string().trim().max(120, m.company.nameTooLong);
export const companyTaxIdSchema = z
  .string()
  .trim()
  .max(32, m.company.taxIdInvalid)
  .regex(/^[\p{L}\p{N} .\-/]*$/u, m.company.taxIdInvalid);

/** POST /api/orders/quote: what a booking would cost now. */
export const quoteInputSchema = z.object({
  productId: z.uuid(),
  quantity: z.number().int().min(MIN_ORDER_QUANTITY).max(MAX_ORDER_TOTAL),
  discountCode: discountCodeEntrySchema.optional(),
});
export type QuoteInput = z.input<typeof quoteInputSchema>;

/** What a booking costs, as quoted and as an order keeps it (shared/orders.ts). */
export const pricedShape = {
  unitPrice: z.number().int(),
  /** The unit price times the quantity (whole dollars), before the discount and tax. */
  totalPrice: z.number().int(),
  discountCode: z.string().nullable(),
  /** Cents: net + tax = gross, the amount the card is charged. */
  discountCents: z.number().int(),
  netCents: z.number().int(),
  taxCents: z.number().int(),
  grossCents: z.number().int(),
  /** The tax rate in basis points (825 = 8.25%) and whether the prices included it. */
  taxRateBp: z.number().int(),
  pricesIncludeTax: z.boolean(),
};

export const quoteSchema = z.object(pricedShape);
export type Quote = z.infer<typeof quoteSchema>;
