import { z } from "zod";
import { ORDER_STATUSES } from "./orders.js";

/** How many low-stock products the admin overview lists, lowest stock first. */
export const LOW_STOCK_LIST_SIZE = 10;

/** GET /api/admin/overview: what an admin wants to see on arrival. */
export const adminOverviewSchema = z.object({
  users: z.number().int(),
  orders: z.object({
    unpaid: z.number().int(),
    paidNotShipped: z.number().int(),
    shipped: z.number().int(),
    refunded: z.number().int(),
    /** Unpaid orders whose hold ran out (their units went back to stock). */
    expired: z.number().int(),
  }),
  /** How many products are below their low-stock threshold (their own, or LOW_STOCK_THRESHOLD). */
  lowStockCount: z.number().int(),
  /** The first LOW_STOCK_LIST_SIZE of them, lowest stock first, each with the threshold it is below. */
  lowStock: z.array(
    z.object({ id: z.string(), name: z.string(), quantity: z.number().int(), threshold: z.number().int() }),
  ),
});
export type AdminOverview = z.infer<typeof adminOverviewSchema>;

/** How many UTC days the overview's sales chart covers, today included. */
export const SALES_DAYS = 30;
/** How many products the overview's top list shows, most units first. */
export const TOP_PRODUCTS_SIZE = 10;

/** GET /api/admin/sales: the overview's charts, from sums kept by triggers (schema/overview.ts). */
export const adminSalesSchema = z.object({
  /** The last SALES_DAYS UTC days, oldest first, today last; a day without orders is all zeros. */
  days: z.array(
    z.object({
      /** YYYY-MM-DD, UTC. */
      day: z.string(),
      /** Orders placed that day and not removed. */
      orders: z.number().int(),
      /** Orders paid that day. */
      paid: z.number().int(),
      /** Dollars paid that day less dollars refunded that day (can be below zero). */
      revenue: z.number().int(),
    }),
  ),
  /** Every status, in ORDER_STATUSES order, with its number of orders. */
  statuses: z.array(z.object({ status: z.enum(ORDER_STATUSES), orders: z.number().int() })),
  /** The first TOP_PRODUCTS_SIZE products by units of their paid or shipped orders, most first. */
  topProducts: z.array(z.object({ id: z.string(), name: z.string(), units: z.number().int() })),
});
export type AdminSales = z.infer<typeof adminSalesSchema>;
