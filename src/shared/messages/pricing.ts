/** Volume prices, discount codes, tax and the buyer's company (docs/product.md, "Prices"). */
export const pricingMessages = {
  tiers: {
    title: "Volume prices",
    row: (min: number, price: string) => `${min}+ units: ${price} each`,
    /** The storefront's table: a row per tier, its units as a range up to the next tier. */
    units: "Units",
    each: "Price each",
    unitsFrom: (min: string) => `${min}+`,
    unitsRange: (from: string, to: string) => `${from}–${to}`,
    invalid: "Volume prices are a list of tiers, each a number of units and a whole-dollar price.",
    minInvalid: (least: number, most: number) =>
      `A volume price starts at a whole number of units from ${least} (the smallest order) to ${most.toLocaleString("en-US")}.`,
    priceInvalid: (most: number) =>
      `A volume price is a whole number of dollars from 1 to ${most.toLocaleString("en-US")}.`,
    notAscending: "Each volume price needs more units than the one before it.",
    notCheaper: "Each volume price needs a lower price than the one before it.",
    notBelowList: (price: string) => `A volume price must be below the product's price (${price}).`,
    /** A new list price alone that the stored tiers do not fit below. */
    priceNotAboveTiers: (highest: string) =>
      `The price must stay above the product's volume prices (the highest is ${highest}): change them with it.`,
    tooMany: (max: number) => `A product can have at most ${max} volume prices.`,
    unitPrice: "Unit price",
  },
  code: {
    label: "Discount code",
    apply: "Apply",
    invalidFormat: "A discount code has 3 to 32 letters, digits or dashes.",
    unknown: "This discount code does not exist.",
    ended: "This discount code has ended.",
    minQuantity: (min: number) => `This discount code needs at least ${min} units.`,
    notApplicable: "This discount code does not apply to this product.",
    usedUp: "This discount code has been used up.",
    customerLimit: "You have used this discount code as often as it allows.",
    tooManyTries: (minutes: number) =>
      `You have tried many discount codes. Please try again in ${minutes} ${minutes === 1 ? "minute" : "minutes"}.`,
  },
  amounts: {
    subtotal: "Subtotal",
    discount: "Discount",
    discountCode: (code: string) => `Discount (${code})`,
    net: "Net",
    tax: (rate: string) => `Tax (${rate})`,
    taxIncluded: (rate: string) => `Includes tax (${rate})`,
    gross: "Total",
    /** My Orders' and Manage Orders' disclosure of an order's amounts under its total. */
    details: "Price details",
    detailsFor: (serial: number, product: string) => `Price details of order #${serial} (${product})`,
  },
  company: {
    name: "Company name (optional)",
    taxId: "Company tax ID (optional)",
    nameTooLong: "A company name has at most 120 characters.",
    taxIdInvalid: "A tax ID has at most 32 letters, digits, spaces, dots or dashes.",
    /** The buyer's company as the payment page and the mails show it. */
    heading: "Company",
    taxIdLine: (id: string) => `Tax ID: ${id}`,
  },
  /** The orders export's columns for the amounts and the company (after its others). */
  csv: {
    discountCode: "Discount code",
    discount: "Discount (USD)",
    net: "Net (USD)",
    tax: "Tax (USD)",
    taxRate: "Tax rate (%)",
    gross: "Gross (USD)",
    companyName: "Company name",
    companyTaxId: "Company tax ID",
  },
} as const;
