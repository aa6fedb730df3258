import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  check,
  customType,
  index,
  integer,
  pgEnum,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { ownerId, users } from "./auth.js";
import { products } from "./catalog.js";
import { createdAt, moment } from "./columns.js";

export const orderStatusEnum = pgEnum("order_status", ["pending", "paid", "shipped", "refunded", "expired"]);

export const orders = pgTable(
  "order",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** Null once the customer's account is removed; the order stays as a record. */
    userId: text("user_id").references(() => users.id, { onDelete: "set null" }),
    productId: uuid("product_id").references(() => products.id, { onDelete: "set null" }),
    productName: text("product_name").notNull(),
    img: text("img").notNull(),
    name: text("name").notNull(),
    email: text("email").notNull(),
    address: text("address").notNull(),
    phone: text("phone").notNull(),
    quantity: integer("quantity").notNull(),
    /** Whole US dollars, fixed when the order is placed. */
    unitPrice: integer("unit_price").notNull(),
    /** The unit price times the quantity, before any discount and tax handling. */
    totalPrice: integer("total_price").notNull(),
    /**
     * What the order costs, in cents, as booked (docs/product.md, "Prices"): the discount off the
     * total, the net, the tax and the gross (net + tax) that the card is charged. The tax rate (basis
     * points) and whether the prices included it are kept as booked.
     */
    discountCents: integer("discount_cents").notNull().default(0),
    netCents: integer("net_cents").notNull(),
    taxCents: integer("tax_cents").notNull().default(0),
    grossCents: integer("gross_cents").notNull(),
    taxRateBp: integer("tax_rate_bp").notNull().default(0),
    pricesIncludeTax: boolean("prices_include_tax").notNull().default(false),
    /** The discount code applied, as the customer entered it (upper case). */
    discountCode: text("discount_code"),
    /** The buyer's company and tax ID, optional, printed on the invoice. */
    companyName: text("company_name"),
    companyTaxId: text("company_tax_id"),
    status: orderStatusEnum("status").notNull().default("pending"),
    transactionId: text("transaction_id"),
    paidAt: moment("paid_at"),
    shippedAt: moment("shipped_at"),
    /** Until when an unpaid order holds its units (ORDER_HOLD_HOURS after it was placed). */
    expiresAt: moment("expires_at"),
    expiredAt: moment("expired_at"),
    refundedAt: moment("refunded_at"),
    /**
     * The credit note issued when the order was refunded (schema/credit-notes.ts), set by the
     * trigger that issues it (migration 0025), so every read of an order answers it without a join.
     */
    creditNoteNumber: bigint("credit_note_number", { mode: "number" }),
    carrier: text("carrier"),
    trackingNumber: text("tracking_number"),
    createdAt: createdAt(),
    /**
     * What Manage Orders searches: the customer's email and name and the product name, lower case,
     * apart by a unit separator (no search holds one, so no match spans two fields). One trigram
     * index over it answers a search with one index scan, and a match is a plain LIKE on one
     * column rather than three ILIKEs (migration 0008_order_search_text).
     */
    searchText: text("search_text")
      .notNull()
      .generatedAlwaysAs(sql`lower(email || chr(31) || name || chr(31) || product_name)`),
  },
  (t) => [
    check("order_quantity_positive", sql`${t.quantity} > 0`),
    check("order_total", sql`${t.totalPrice} = ${t.unitPrice} * ${t.quantity}`),
    check(
      "order_amounts",
      sql`${t.netCents} + ${t.taxCents} = ${t.grossCents} and ${t.discountCents} >= 0 and ${t.taxCents} >= 0`,
    ),
    // The lists' keyset order (features/orders/list.ts): newest first, the id breaking ties. Read
    // backwards, so a plain ascending index serves `order by created_at desc, id desc`.
    index("order_user_created_id_idx").on(t.userId, t.createdAt, t.id),
    index("order_created_id_idx").on(t.createdAt, t.id),
    index("order_status_created_id_idx").on(t.status, t.createdAt, t.id),
    // Whether a product was ever ordered (deleting it is refused then), and ON DELETE SET NULL.
    index("order_product_idx").on(t.productId),
    // The expiry job's next batch: unpaid orders whose hold has run out, soonest first.
    index("order_pending_expires_idx").on(t.expiresAt).where(sql`${t.status} = 'pending'`),
    // The cap on what one customer holds: their unpaid orders, read at every booking.
    index("order_user_pending_idx").on(t.userId, t.expiresAt).where(sql`${t.status} = 'pending'`),
    // Search (LIKE) on Manage Orders; pg_trgm comes with migration 0003_people_list_indexes.
    index("order_search_text_trgm_idx")
      .using("gin", t.searchText.op("gin_trgm_ops"))
      .with({ gin_pending_list_limit: 128 }),
    // The image sweep asks whether any order shows an image (features/uploads/sweep.ts).
    index("order_img_idx").on(t.img),
    uniqueIndex("order_transaction_idx").on(t.transactionId),
  ],
);

/**
 * An order's amounts as booked (OrderAmounts, shared/order-amounts.ts), as a select's columns:
 * what the mails, the exports and the papers print of them, never worked out again.
 */
export const orderAmountColumns = {
  totalPrice: orders.totalPrice,
  discountCode: orders.discountCode,
  discountCents: orders.discountCents,
  netCents: orders.netCents,
  taxCents: orders.taxCents,
  grossCents: orders.grossCents,
  taxRateBp: orders.taxRateBp,
  pricesIncludeTax: orders.pricesIncludeTax,
};

/** Remembers the order a retried POST /api/orders created (Idempotency-Key). */
export const idempotencyKeys = pgTable(
  "idempotency_key",
  {
    userId: ownerId().notNull(),
    key: text("key").notNull(),
    requestHash: text("request_hash").notNull(),
    orderId: uuid("order_id").references(() => orders.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.key] }),
    // The retention job's next batch: keys older than a day, oldest first (features/retention).
    index("idempotency_key_created_idx").on(t.createdAt),
  ],
);

/** The one payment recorded for a paid order. Card numbers are never stored: brand and last four only. */
export const payments = pgTable("payment", {
  id: uuid("id").primaryKey().defaultRandom(),
  orderId: uuid("order_id")
    .notNull()
    .unique()
    .references(() => orders.id, { onDelete: "cascade" }),
  provider: text("provider").notNull(),
  intentId: text("intent_id").notNull().unique(),
  amount: integer("amount").notNull(),
  currency: text("currency").notNull(),
  cardBrand: text("card_brand"),
  cardLast4: text("card_last4"),
  createdAt: createdAt(),
});

/** The sandbox provider's payment intents (kept in PostgreSQL so every instance sees them). */
export const sandboxIntents = pgTable(
  "sandbox_intent",
  {
    id: text("id").primaryKey(),
    clientSecret: text("client_secret").notNull().unique(),
    orderId: uuid("order_id").notNull(),
    amount: integer("amount").notNull(),
    currency: text("currency").notNull(),
    status: text("status").notNull(),
    lastError: text("last_error"),
    cardBrand: text("card_brand"),
    cardLast4: text("card_last4"),
    /** The intent's one refund (always in full), once refunded. */
    refundId: text("refund_id"),
    createdAt: createdAt(),
  },
  (t) => [
    index("sandbox_intent_order_idx").on(t.orderId),
    // The retention job's next batch: cancelled intents, oldest first (features/retention).
    index("sandbox_intent_canceled_idx").on(t.createdAt).where(sql`${t.status} = 'canceled'`),
  ],
);

/**
 * Every payment intent the shop asked a provider for, by order, so that removing or expiring the
 * order can cancel them (no foreign key: the record outlives a removed order).
 */
export const orderIntents = pgTable(
  "order_intent",
  {
    intentId: text("intent_id").primaryKey(),
    orderId: uuid("order_id").notNull(),
    provider: text("provider").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("order_intent_order_idx").on(t.orderId)],
);

export const refundReasonEnum = pgEnum("refund_reason", [
  "admin",
  "order_removed",
  "order_expired",
  "duplicate_charge",
]);

/**
 * Every refund made through a provider, in full: by an admin (or at the provider's dashboard),
 * or automatically for a payment that succeeded for a removed or expired order or a second charge
 * for a paid one. One per intent (a refund is always of the whole intent).
 */
export const refunds = pgTable(
  "refund",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** Null once the order is removed (a payment that succeeded for a removed order). */
    orderId: uuid("order_id").references(() => orders.id, { onDelete: "set null" }),
    intentId: text("intent_id").notNull().unique(),
    providerRefundId: text("provider_refund_id").notNull().unique(),
    /** Cents, as the provider refunded them. */
    amount: integer("amount").notNull(),
    reason: refundReasonEnum("reason").notNull(),
    createdAt: createdAt(),
  },
  // Removing an order sets its refunds' order_id to null through this index.
  (t) => [index("refund_order_idx").on(t.orderId)],
);

/** Webhook events already applied, so duplicates are ignored. */
export const paymentEvents = pgTable("payment_event", {
  id: text("id").primaryKey(),
  type: text("type").notNull(),
  receivedAt: moment("received_at").notNull().defaultNow(),
});

const bytea = customType<{ data: Buffer }>({ dataType: () => "bytea" });

/** Uploaded images, re-encoded, addressed by the SHA-256 of their bytes. */
export const images = pgTable(
  "image",
  {
    key: text("key").primaryKey(),
    contentType: text("content_type").notNull(),
    data: bytea("data").notNull(),
    width: integer("width").notNull(),
    height: integer("height").notNull(),
    byteSize: integer("byte_size").notNull(),
    createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    /**
     * Since when the image may be unused: its latest upload, or when a product or order that showed
     * it let go of it (the trigger `image_release`, in the migration that added this column). Null
     * while the image sweep (features/uploads/sweep.ts) last found it in use.
     */
    releasedAt: moment("released_at").defaultNow(),
  },
  (t) => [index("image_released_idx").on(t.releasedAt).where(sql`${t.releasedAt} is not null`)],
);

/** Each account's uploads in its current day (features/uploads/quota.ts): a fixed window from its first upload. */
export const uploadQuotas = pgTable("upload_quota", {
  userId: ownerId().primaryKey(),
  windowStart: moment("window_start").notNull(),
  count: integer("count").notNull(),
  /** The uploads' bytes as received, before re-encoding. */
  bytes: bigint("bytes", { mode: "number" }).notNull(),
});
