import { z } from "zod";
import { phoneSchema } from "./accounts.js";
import { MAX_ORDER_TOTAL, MIN_ORDER_QUANTITY } from "./constants.js";
import { messages } from "./messages.js";
import { UPLOADED_IMAGE_PATTERN } from "./uploads.js";

export const ORDER_STATUSES = ["pending", "paid", "shipped"] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/** What a customer sends to book; name, email, product name, prices and total come from the server. */
export const orderInputSchema = z.object({
  productId: z.uuid(),
  quantity: z
    .number({ error: messages.order.minimum })
    .int(messages.order.minimum)
    .min(MIN_ORDER_QUANTITY, messages.order.minimum)
    .max(1_000_000, messages.order.outOfStock),
  address: z.string().trim().min(1, messages.order.addressRequired).max(300),
  phone: phoneSchema,
  img: z.string().regex(UPLOADED_IMAGE_PATTERN, messages.order.imageInvalid).optional(),
});
export type OrderInput = z.input<typeof orderInputSchema>;

/** Whether `quantity` units at `unitPrice` stay within what one order may total. */
export const withinOrderTotal = (unitPrice: number, quantity: number) =>
  unitPrice * quantity <= MAX_ORDER_TOTAL;

/** The message for an order over MAX_ORDER_TOTAL, with the limit as a price. */
export const orderTotalTooLarge = () =>
  messages.order.totalTooLarge(`$${MAX_ORDER_TOTAL.toLocaleString("en-US")}`);

export const orderSchema = z.object({
  id: z.string(),
  productId: z.string().nullable(),
  productName: z.string(),
  img: z.string(),
  name: z.string(),
  email: z.string(),
  address: z.string(),
  quantity: z.number().int(),
  phone: z.string(),
  unitPrice: z.number().int(),
  totalPrice: z.number().int(),
  paid: z.boolean(),
  status: z.enum(ORDER_STATUSES),
  transactionId: z.string().nullable(),
  createdAt: z.string(),
});
export type Order = z.infer<typeof orderSchema>;

export const orderIdParamsSchema = z.object({ id: z.uuid() });
