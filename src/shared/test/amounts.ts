import type { OrderAmounts } from "../order-amounts.js";

/** The amounts of ten units at $37 booked with neither discount nor tax: $370.00 in all. */
export const PLAIN_AMOUNTS: OrderAmounts = {
  totalPrice: 370,
  discountCode: null,
  discountCents: 0,
  netCents: 37_000,
  taxCents: 0,
  grossCents: 37_000,
  taxRateBp: 0,
  pricesIncludeTax: false,
};
