import { z } from "zod";
import { addressSchema, phoneSchema } from "./accounts.js";
import { MAX_ORDER_TOTAL, MIN_ORDER_QUANTITY, PRODUCT_QUANTITY_MAX } from "./constants.js";
import { orderMessages } from "./messages/orders.js";
import { twoWayPageSchema, twoWayQuerySchema } from "./paging.js";
import { companyNameSchema, companyTaxIdSchema, discountCodeEntrySchema, pricedShape } from "./pricing.js";
import { UPLOADED_IMAGE_PATTERN } from "./uploads.js";

/**
 * An order's lifecycle (the server's one state machine: features/orders/lifecycle.ts):
 * pending -> paid | expired | removed (the row is deleted), paid -> shipped | refunded.
 * "pending" is unpaid and holds its units until `expiresAt`; "expired" and "refunded" gave them back.
 */
export const ORDER_STATUSES = ["pending", "paid", "shipped", "refunded", "expired"] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/** Carrier and tracking number, each optional when shipping. */
export const CARRIER_MAX_LENGTH = 60;
export const TRACKING_NUMBER_MAX_LENGTH = 60;

/** What a customer sends to book; name, email, product name, prices and total come from the server. */
export const orderInputSchema = z.object({
  productId: z.uuid(),
  quantity: z
    .number({ error: orderMessages.minimum })
    .int(orderMessages.minimum)
    .min(MIN_ORDER_QUANTITY, orderMessages.minimum)
    .max(PRODUCT_QUANTITY_MAX, orderMessages.outOfStock),
  address: addressSchema(orderMessages.addressRequired, 300),
  phone: phoneSchema,
  img: z.string().regex(UPLOADED_IMAGE_PATTERN, orderMessages.imageInvalid).optional(),
  /** A discount code as entered (any case); checked by the server when booking. */
  discountCode: discountCodeEntrySchema.optional(),
  /** The buyer's company and tax ID, optional, printed on the invoice. */
  companyName: companyNameSchema.optional(),
  companyTaxId: companyTaxIdSchema.optional(),
});
export type OrderInput = z.input<typeof orderInputSchema>;

/** Whether `quantity` units at `unitPrice` stay within what one order may total. */
export const withinOrderTotal = (unitPrice: number, quantity: number) =>
  unitPrice * quantity <= MAX_ORDER_TOTAL;

/** The message for an order over MAX_ORDER_TOTAL, with the limit as a price. */
export const orderTotalTooLarge = () =>
  orderMessages.totalTooLarge(`$${MAX_ORDER_TOTAL.toLocaleString("en-US")}`);

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
  /** Its prices and amounts as booked. */
  ...pricedShape,
  companyName: z.string().nullable(),
  companyTaxId: z.string().nullable(),
  /** Whether the order was ever paid (paid, shipped or refunded). */
  paid: z.boolean(),
  status: z.enum(ORDER_STATUSES),
  transactionId: z.string().nullable(),
  createdAt: z.string(),
  /** When an unpaid order's hold ends (null once it is paid or expired). ISO 8601. */
  expiresAt: z.string().nullable(),
  paidAt: z.string().nullable(),
  shippedAt: z.string().nullable(),
  refundedAt: z.string().nullable(),
  /** When the hold ran out and the units went back to stock. */
  expiredAt: z.string().nullable(),
  carrier: z.string().nullable(),
  trackingNumber: z.string().nullable(),
  /** The credit note issued when a paid order was refunded (GET /api/orders/{id}/credit-note.pdf). */
  creditNoteNumber: z.number().int().nullable(),
});
export type Order = z.infer<typeof orderSchema>;

/** POST /api/orders/{id}/ship: optionally, who carries it and its tracking number. */
export const shipOrderInputSchema = z
  .object({
    carrier: z.string().trim().max(CARRIER_MAX_LENGTH, orderMessages.ship.carrierTooLong).optional(),
    trackingNumber: z
      .string()
      .trim()
      .max(TRACKING_NUMBER_MAX_LENGTH, orderMessages.ship.trackingTooLong)
      .regex(/^[A-Za-z0-9 -]*$/, orderMessages.ship.trackingInvalid)
      .optional(),
  })
  .refine((v) => !v.trackingNumber || v.carrier, {
    error: orderMessages.ship.carrierRequired,
    path: ["carrier"],
  });
export type ShipOrderInput = z.input<typeof shipOrderInputSchema>;

export const orderIdParamsSchema = z.object({ id: z.uuid() });

/**
 * A search is found anywhere in an email, a name or a product name from trigram indexes
 * (PostgreSQL pg_trgm), which can look up a run of three letters or digits (A to Z, 0 to 9: the
 * embedded database's C locale knows no other letters) and nothing shorter. A term without such a
 * run would read every order, and at the start of a word it would still match tens of thousands, so
 * it is refused; a whole order id or transaction id is matched exactly.
 */
export const ORDER_SEARCH_MIN_RUN = 3;
export const ORDER_SEARCH_MAX_LENGTH = 100;
const SEARCHABLE_RUN = new RegExp(`[A-Za-z0-9]{${ORDER_SEARCH_MIN_RUN}}`);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether a search term is an order id, matched exactly rather than as text. */
export const isOrderId = (term: string) => UUID.test(term);
/** An order's number as the shop shows it (format.ts orderNumber: "#" and its id's first 8 digits). */
const ORDER_NUMBER = /^#?([0-9a-f]{8})$/i;
/** The id's first 8 digits, lower-case, when a search term is an order's number ("#1A2B3C4D"), with or without "#". */
export const orderNumberPrefix = (term: string) => ORDER_NUMBER.exec(term)?.[1]?.toLowerCase();
/** Whether a trimmed search term can be looked up: none (no search), an order id, or a run of 3. */
export const isSearchableTerm = (term: string) => term === "" || isOrderId(term) || SEARCHABLE_RUN.test(term);

const STATUS_LIST = new RegExp(`^(${ORDER_STATUSES.join("|")})(,(${ORDER_STATUSES.join("|")}))*$`);

/** An instant: a date (its midnight UTC) or a date and time with its offset (also the activity log's range). */
export const instantSchema = z
  .union([z.iso.date(), z.iso.datetime({ offset: true })], { error: orderMessages.list.dateInvalid })
  .transform((value) => new Date(value))
  .refine((date) => date.getUTCFullYear() >= 1970 && date.getUTCFullYear() <= 9999, {
    error: orderMessages.list.dateInvalid,
  });

const filterShape = {
  status: z
    .string()
    .regex(STATUS_LIST, orderMessages.list.statusInvalid)
    .transform((value) => [...new Set(value.split(","))] as OrderStatus[])
    .optional()
    .meta({ description: `One status or several, comma-separated: ${ORDER_STATUSES.join(", ")}.` }),
  search: z
    .string()
    .trim()
    .max(ORDER_SEARCH_MAX_LENGTH)
    .refine(isSearchableTerm, orderMessages.list.searchTooShort(ORDER_SEARCH_MIN_RUN))
    .optional()
    .meta({
      description:
        "Case-insensitive, anywhere in the customer's email or name or the product name, with 3 letters or digits (A to Z, 0 to 9) in a row; or exactly an order id, an order number (#1A2B3C4D, the id's first 8 digits) or a transaction id.",
    }),
  from: instantSchema.optional().meta({
    description: "Orders placed at or after this instant (a date means its midnight UTC).",
  }),
  to: instantSchema.optional().meta({
    description:
      "Orders placed before this instant (a date means its midnight UTC), so from=2026-01-01&to=2026-02-01 is January.",
  }),
};
export const rangeInOrder = (f: { from?: Date | undefined; to?: Date | undefined }) =>
  !f.from || !f.to || f.from < f.to;
export const reversed = { error: orderMessages.list.rangeReversed, path: ["to"] };

/** GET /api/orders/export.csv: the filter of the admin's order list. */
export const orderFilterSchema = z.object(filterShape).refine(rangeInOrder, reversed);
export type OrderFilter = z.output<typeof orderFilterSchema>;

/** GET /api/orders: a page of every order, newest first, filtered. */
export const orderListQuerySchema = twoWayQuerySchema.extend(filterShape).refine(rangeInOrder, reversed);

/** GET /api/orders/mine: a page of the customer's own orders, newest first. */
export const myOrdersQuerySchema = twoWayQuerySchema;

/** A page of orders; `prevCursor` leads to the page before it (null on the first). */
export const orderPageSchema = twoWayPageSchema(orderSchema);
export type OrderPage = z.infer<typeof orderPageSchema>;
