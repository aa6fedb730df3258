/**
 * Business constants of the shop (docs/product.md, Constants). Free of zod, so the home page's bundle can use them
 * without the schemas of src/shared.
 */

export const MIN_ORDER_QUANTITY = 10;
/** Stock in units; the same ceiling as the largest order the shop accepts. */
export const PRODUCT_QUANTITY_MAX = 1_000_000;
/**
 * The most one order may total, in whole US dollars: the most a card payment can take at once
 * (Stripe charges at most 999,999.99 USD), and well within the 32-bit columns of cents.
 */
export const MAX_ORDER_TOTAL = 999_999;
/** The least a card payment may take, in cents (Stripe's minimum charge in USD): no discount goes below it. */
export const MIN_CHARGE_CENTS = 50;
export const HOME_REVIEW_COUNT = 3;
/** Reviews the Reviews page loads at a time: whole rows of its two- and three-column grids. */
export const REVIEW_PAGE_SIZE = 12;
export const RATING_MIN = 0;
export const RATING_MAX = 5;
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 20;
/** The longest name an account may have. */
export const NAME_MAX_LENGTH = 80;
/** The most lines a delivery address may have (the invoice's address block prints each). */
export const ADDRESS_MAX_LINES = 4;
export const TOAST_AUTO_CLOSE_MS = 5000;
export const SLIDER_INTERVAL_MS = 4000;
/** The default of LOW_STOCK_THRESHOLD (config.ts): below it, a product without a threshold of its own is low. */
export const LOW_STOCK_THRESHOLD = 50;
export const DEFAULT_PAGE_SIZE = 12;
export const MAX_PAGE_SIZE = 48;
export const MAX_UPLOAD_MEGABYTES = 5;
export const MAX_UPLOAD_BYTES = MAX_UPLOAD_MEGABYTES * 1024 * 1024;
/** Products shown in the home page's Explore Products section. */
export const HOME_PRODUCT_COUNT = 6;

export const CATEGORIES = ["keyboards", "mice", "memory", "headphones", "cooling-fans"] as const;
export type Category = (typeof CATEGORIES)[number];

export const CATEGORY_LABELS: Record<Category, string> = {
  keyboards: "Keyboards",
  mice: "Mice",
  memory: "Memory",
  headphones: "Headphones",
  "cooling-fans": "Cooling fans",
};

/** "relevance" orders the products that best match a search first; it needs a search term. */
export const PRODUCT_SORTS = [
  "relevance",
  "name-asc",
  "name-desc",
  "price-asc",
  "price-desc",
  "newest",
] as const;
export type ProductSort = (typeof PRODUCT_SORTS)[number];
/** The order of the list while no search term is given. */
const DEFAULT_PRODUCT_SORT: ProductSort = "name-asc";
/** The order of the list while a search term is given. */
const DEFAULT_SEARCH_SORT: ProductSort = "relevance";

/** The order the list is shown in when none is chosen: by relevance while searching, else by name. */
export function defaultProductSort(search: string): ProductSort {
  return search ? DEFAULT_SEARCH_SORT : DEFAULT_PRODUCT_SORT;
}

/**
 * The order the list is actually shown in: the one chosen, or the default for the search. Without a
 * search term every product is equally relevant, so "relevance" is the list by name.
 */
export function effectiveProductSort(sort: ProductSort | undefined, search: string): ProductSort {
  if (sort === undefined || (sort === DEFAULT_SEARCH_SORT && !search)) return defaultProductSort(search);
  return sort;
}

/**
 * A search counts its matches up to this many and then says "more than": counting every match of a
 * broad term ("keyboard" in a catalog of 100,000) would cost more than the search itself.
 */
export const SEARCH_COUNT_LIMIT = 1_000;

/** Builds `path?query` from the given values in their order, leaving out empty ones. */
export function withQuery(path: string, query: Record<string, string | number | undefined>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== "") params.set(key, String(value));
  }
  const search = params.toString();
  return search ? `${path}?${search}` : path;
}

/**
 * The API path of one page of the product list, its parameters always in this order: the client
 * asks it, and the server preloads the one /tools asks on arrival, which only works when both
 * spell it alike.
 */
export function productListPath({
  search,
  category,
  sort,
  page,
  pageSize,
}: {
  search?: string;
  category?: Category;
  sort?: ProductSort;
  page?: number;
  pageSize?: number;
}): string {
  return withQuery("/api/products", { search, category, sort, page, pageSize });
}

/** Number of filled stars for a rating (docs/product.md: 0..5 accepted, 1..5 stars shown). */
export function starCount(rating: number): number {
  return Math.min(RATING_MAX, Math.max(1, Math.round(rating)));
}
