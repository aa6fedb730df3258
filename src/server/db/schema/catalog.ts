import { sql } from "drizzle-orm";
import {
  boolean,
  check,
  index,
  integer,
  pgEnum,
  pgTable,
  smallint,
  text,
  timestamp,
  uuid,
} from "drizzle-orm/pg-core";
import { CATEGORIES } from "../../../shared/catalog.js";
import { users } from "./auth.js";

export const categoryEnum = pgEnum("category", CATEGORIES);

export const products = pgTable(
  "product",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    name: text("name").notNull(),
    description: text("description").notNull(),
    image: text("image").notNull(),
    /** Unit price in whole US dollars. */
    price: integer("price").notNull(),
    /** Available stock. */
    quantity: integer("quantity").notNull(),
    category: categoryEnum("category").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("product_price_positive", sql`${t.price} > 0`),
    check("product_quantity_nonnegative", sql`${t.quantity} >= 0`),
    index("product_name_idx").on(t.name, t.id),
    index("product_price_idx").on(t.price, t.id),
    index("product_created_idx").on(t.createdAt, t.id),
    index("product_category_name_idx").on(t.category, t.name),
    // The image sweep asks whether any product shows an image (features/uploads/sweep.ts).
    index("product_image_idx").on(t.image),
  ],
);

export const reviews = pgTable(
  "review",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: text("user_id").references(() => users.id, { onDelete: "set null" }),
    name: text("name").notNull(),
    comment: text("comment").notNull(),
    rating: smallint("rating").notNull(),
    /**
     * The author was an admin when writing it: the shop's own voice. Kept on the row, so a later
     * promotion or demotion does not relabel what the account wrote before.
     */
    staff: boolean("staff").notNull().default(false),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("review_rating_range", sql`${t.rating} between 0 and 5`),
    // Newest first, a page at a time. Ascending on purpose: "ORDER BY created_at DESC" means NULLS
    // FIRST, which a backward scan of this index gives and an index declared DESC (NULLS LAST) does not.
    index("review_newest_idx").on(t.createdAt, t.id),
    index("review_user_idx").on(t.userId),
  ],
);
