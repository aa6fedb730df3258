import { z } from "zod";
import { cursorPageSchema, cursorQuerySchema } from "./paging.js";

/**
 * Back-in-stock subscriptions (features/stock-notices): a signed-in customer asks to be told when a
 * product that cannot be booked (stock below MIN_ORDER_QUANTITY) is back. One per customer and
 * product; it ends with its mail, after STOCK_NOTICE_DAYS, or when cancelled or unsubscribed.
 */
export const STOCK_NOTICE_DAYS = 90;

export const stockNoticeInputSchema = z.object({ productId: z.uuid() });

export const stockNoticeSchema = z.object({
  id: z.string(),
  productId: z.string(),
  productName: z.string(),
  productImage: z.string(),
  /** The product's stock now. */
  quantity: z.number().int(),
  createdAt: z.string(),
  /** When it ends unmailed (STOCK_NOTICE_DAYS after it was asked). */
  endsAt: z.string(),
});
export type StockNotice = z.infer<typeof stockNoticeSchema>;

/** GET /api/stock-notices: the customer's open subscriptions, newest first; one product's with productId. */
export const stockNoticeListQuerySchema = cursorQuerySchema.extend({ productId: z.uuid().optional() });
export const stockNoticePageSchema = cursorPageSchema(stockNoticeSchema);
export type StockNoticePage = z.infer<typeof stockNoticePageSchema>;

export const stockNoticeIdParamsSchema = z.object({ id: z.uuid() });

/** POST /api/stock-notices/unsubscribe: the link of the mail, which works without signing in. */
export const stockNoticeUnsubscribeSchema = z.object({
  id: z.uuid(),
  token: z.string().regex(/^[A-Za-z0-9_-]{43}$/),
});
