import { CATEGORY_LABELS } from "../../../../shared/constants.js";
import type { DiscountCode, DiscountCodeState } from "../../../../shared/discounts.js";
import { discountMessages } from "../../../../shared/messages/discounts.js";
import { formatCents } from "../../../../shared/pricing.js";
import { formatUtc } from "../../../lib/format.js";

const t = discountMessages;

/** What a code takes off: "15%" or "$12.50". */
export const offOf = (code: DiscountCode) =>
  code.kind === "percent" ? t.percentOff(code.value) : formatCents(code.value);

/** Where it applies: its products and categories by name, or every product. */
export function appliesToOf(code: DiscountCode): string {
  const names = [...code.products.map((p) => p.name), ...code.categories.map((c) => CATEGORY_LABELS[c])];
  return names.length === 0 ? t.everything : names.join(", ");
}

/** When it may be used, in UTC as the admin lists write times. */
export const validOf = (code: DiscountCode) =>
  code.endsAt ? t.fromTo(formatUtc(code.startsAt), formatUtc(code.endsAt)) : t.from(formatUtc(code.startsAt));

const STATE_BADGE: Record<DiscountCodeState, string> = {
  active: "badge-success",
  scheduled: "badge-info",
  "used-up": "badge-error",
  expired: "",
  ended: "",
};

/** The badge classes of a code's state (its words come with it: colour is never the only sign). */
export const stateBadge = (state: DiscountCodeState) => `badge badge-soft ${STATE_BADGE[state]}`.trim();
