/** The product list, its search and filters, and a product's page. */
import { MIN_ORDER_QUANTITY } from "../constants.js";

export const catalogMessages = {
  title: "Products",
  lead: `Keyboards, mice, memory, headphones and cooling fans, ready to order from ${MIN_ORDER_QUANTITY} units.`,
  purchase: "Purchase",
  inStock: (count: string) => `${count} in stock`,
  searchLabel: "Search products",
  searchPlaceholder: "Keyboard, mouse, DDR5…",
  categoryLabel: "Category",
  allCategories: "All categories",
  sortLabel: "Sort by",
  sorts: {
    relevance: "Best match",
    "name-asc": "Name: A to Z",
    "name-desc": "Name: Z to A",
    "price-asc": "Price: low to high",
    "price-desc": "Price: high to low",
    newest: "Newest first",
  },
  results: (from: number, to: number, total: number) => `Showing ${from}–${to} of ${total} products`,
  /** A search matching more products than it counts (SEARCH_COUNT_LIMIT). */
  resultsMoreThan: (from: number, to: number, total: number) =>
    `Showing ${from}–${to} of more than ${total} products`,
  /** Too many searches at once: the shop keeps its database for everything else (503). */
  searchBusy: "Searching is busy right now. Please try again in a moment.",
  /** A search that ran past its time limit (503). */
  searchTooLong: "This search took too long. Please try again, or search for something more specific.",
  noProducts: "No products match your search.",
  clearFilters: "Clear filters",
  pagination: "Pages",
  previousPage: "Previous page",
  nextPage: "Next page",
  page: (page: number) => `Page ${page}`,
  unitPrice: "per unit",
  available: (count: string) => `${count} units available`,
  minimumOrder: (units: number) => `Minimum order ${units} units`,
  videoLabel: "Product showcase video",
  backToProducts: "Back to products",
  productMissing: "This product does not exist or is no longer sold.",
  /** GET /api/products/:id and PATCH for a product that is not there (404). */
  notFound: "This product does not exist.",
  /** GET /api/products/:id for an archived product (410, code product-archived), and its page. */
  archived: "This product is no longer sold.",
  archivedLead: "It was retired from the catalog. Orders already placed for it are kept in My Orders.",
} as const;
