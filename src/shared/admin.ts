import { z } from "zod";

/** How many low-stock products the admin overview lists, lowest stock first. */
export const LOW_STOCK_LIST_SIZE = 10;

/** GET /api/admin/overview: what an admin wants to see on arrival. */
export const adminOverviewSchema = z.object({
  users: z.number().int(),
  orders: z.object({
    unpaid: z.number().int(),
    paidNotShipped: z.number().int(),
    shipped: z.number().int(),
  }),
  /** How many products are below LOW_STOCK_THRESHOLD units. */
  lowStockCount: z.number().int(),
  /** The first LOW_STOCK_LIST_SIZE of them, lowest stock first. */
  lowStock: z.array(z.object({ id: z.string(), name: z.string(), quantity: z.number().int() })),
});
export type AdminOverview = z.infer<typeof adminOverviewSchema>;
