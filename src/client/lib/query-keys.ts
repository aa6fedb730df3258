import type { ProductListQuery } from "../../shared/catalog.js";
import type { PageAt } from "./use-page-position.js";

/*
 * The query keys of data that several features show or change: the products (the storefront
 * lists them, an order or an admin's edit changes them), the orders (the customer's, the admin's
 * and the payment page's) and the admin overview (which counts users and orders). Client features
 * import no other feature (.dependency-cruiser.cjs), so these factories live here; keys of data
 * one feature alone uses live in that feature's api/keys.ts. Every key starts with its factory's
 * `all`, so invalidating `all` refreshes every view of that data.
 */

export const catalogKeys = {
  all: ["products"] as const,
  list: (filter: Partial<ProductListQuery>) => [...catalogKeys.all, "list", filter] as const,
  detail: (id: string) => [...catalogKeys.all, "detail", id] as const,
  /** The admin's pages of products on sale or archived (GET /api/admin/products). */
  admin: (archived: boolean, page: number) => [...catalogKeys.all, "admin", archived, page] as const,
  /** One product as the admin sees it, archived or not. */
  adminDetail: (id: string) => [...catalogKeys.all, "admin-detail", id] as const,
};

const pageAt = (at: PageAt) => [at.cursor ?? "", at.before ?? ""] as const;

export const orderKeys = {
  all: ["orders"] as const,
  /** Every page of the signed-in customer's own orders. */
  mine: () => [...orderKeys.all, "mine"] as const,
  minePage: (at: PageAt) => [...orderKeys.mine(), ...pageAt(at)] as const,
  /** A page of the shop's orders (admin); `query` is the filter's API query. */
  allPage: (query: URLSearchParams, at: PageAt) =>
    [...orderKeys.all, "all", query.toString(), ...pageAt(at)] as const,
  detail: (id: string) => [...orderKeys.all, "detail", id] as const,
  /** What booking would cost (the booking form's live figures). */
  quote: (productId: string, quantity: number, code: string | undefined) =>
    [...orderKeys.all, "quote", productId, quantity, code ?? ""] as const,
  /** Under the order's detail, so refreshing the order refreshes its payment too. */
  paymentIntent: (id: string) => [...orderKeys.detail(id), "payment-intent"] as const,
};

export const adminKeys = {
  all: ["admin"] as const,
  /** Counts of users and orders by state, and the products running low. */
  overview: () => [...adminKeys.all, "overview"] as const,
  /** The overview's charts: sales per day, orders by status, top products. */
  sales: () => [...adminKeys.all, "sales"] as const,
  /** A product's stock and threshold, and its history under it (features/stock). */
  stock: (id: string) => [...adminKeys.all, "stock", id] as const,
  stockHistory: (id: string) => [...adminKeys.stock(id), "history"] as const,
};
