import { sql } from "drizzle-orm";
import {
  boolean,
  check,
  index,
  integer,
  pgEnum,
  pgTable,
  text,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { users } from "./auth.js";
import { categoryEnum } from "./catalog.js";
import { createdAt, moment } from "./columns.js";

export const discountKindEnum = pgEnum("discount_kind", ["percent", "amount"]);

/**
 * A discount code an admin made (docs/product.md, "Prices"). `code` is kept upper case, so a
 * customer's entry matches whatever its case. `uses` counts the orders holding a use, kept by the
 * booking (under this row's lock, so concurrent bookings never exceed `max_uses`) and by the trigger
 * that frees a use when its order is removed or expires (migration 0024).
 */
export const discountCodes = pgTable(
  "discount_code",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    code: text("code").notNull(),
    kind: discountKindEnum("kind").notNull(),
    /** Percent (1 to 100) or cents off the order, by kind. */
    value: integer("value").notNull(),
    startsAt: moment("starts_at").notNull().defaultNow(),
    endsAt: moment("ends_at"),
    /** Units an order must have for the code to apply. */
    minQuantity: integer("min_quantity").notNull().default(1),
    /** The products it applies to; with `categories`, both empty means every product. */
    productIds: uuid("product_ids").array().notNull().default(sql`'{}'`),
    categories: categoryEnum("categories").array().notNull().default(sql`'{}'`),
    maxUses: integer("max_uses"),
    maxUsesPerCustomer: integer("max_uses_per_customer"),
    uses: integer("uses").notNull().default(0),
    /** When an admin ended it before its end. */
    endedAt: moment("ended_at"),
    createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("discount_code_code_idx").on(t.code),
    index("discount_code_created_idx").on(t.createdAt, t.id),
    check("discount_code_upper", sql`${t.code} = upper(${t.code})`),
    check("discount_code_value", sql`${t.value} > 0 and (${t.kind} = 'amount' or ${t.value} <= 100)`),
    check("discount_code_min_quantity", sql`${t.minQuantity} >= 1`),
    check("discount_code_uses", sql`${t.uses} >= 0`),
  ],
);

/** One order's use of a code: removed (freeing the use) when the order is removed or expires. */
export const discountCodeUses = pgTable(
  "discount_code_use",
  {
    orderId: uuid("order_id").primaryKey(),
    codeId: uuid("code_id")
      .notNull()
      .references(() => discountCodes.id, { onDelete: "cascade" }),
    userId: text("user_id").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [
    // A customer's uses of a code (the per-customer limit), and a code's uses newest first.
    index("discount_code_use_customer_idx").on(t.codeId, t.userId),
    index("discount_code_use_code_idx").on(t.codeId, t.createdAt, t.orderId),
  ],
);

/**
 * The shop's settings (one row): the tax rate in basis points (825 = 8.25%) and whether the
 * catalog's prices include it. An order keeps both as booked.
 */
export const shopSettings = pgTable(
  "shop_settings",
  {
    one: boolean("one").primaryKey().default(true),
    taxRateBp: integer("tax_rate_bp").notNull().default(0),
    pricesIncludeTax: boolean("prices_include_tax").notNull().default(false),
    /** The shop's own tax ID, printed on invoices and credit notes. */
    taxId: text("tax_id").notNull().default(""),
    updatedAt: moment("updated_at").notNull().defaultNow(),
  },
  (t) => [
    check("shop_settings_one_row", sql`${t.one}`),
    check("shop_settings_tax_rate", sql`${t.taxRateBp} between 0 and 10000`),
  ],
);
