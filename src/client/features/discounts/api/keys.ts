/** The discounts feature's queries: every one starts with `all`, so a change refreshes them all. */
export const discountKeys = {
  all: ["discounts"] as const,
  /** The codes, newest first, a page at a time. */
  codes: () => [...discountKeys.all, "codes"] as const,
  /** A code and the pages of its uses. */
  code: (id: string) => [...discountKeys.all, "code", id] as const,
  /** The products whose names match what the admin typed in the code's form. */
  productSearch: (term: string) => [...discountKeys.all, "product-search", term] as const,
  tax: () => [...discountKeys.all, "tax"] as const,
};
