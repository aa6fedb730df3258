import { sql } from "drizzle-orm";
import {
  type AnyPgColumn,
  boolean,
  check,
  customType,
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  smallint,
  text,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { CATEGORIES } from "../../../shared/catalog.js";
import { users } from "./auth.js";
import { createdAt, moment, timestamps } from "./columns.js";

export const categoryEnum = pgEnum("category", CATEGORIES);

/**
 * Words a shopper may search a category by, beside its products' names ("mice" finds every mouse,
 * "headphone" every headset). A change here is a schema change: the generated columns below, and
 * the words search_word holds of them, follow it only through a migration.
 */
export const CATEGORY_SEARCH_WORDS: Record<(typeof CATEGORIES)[number], string> = {
  keyboards: "keyboards",
  mice: "mice mouse",
  memory: "memory ram",
  headphones: "headphones headset",
  "cooling-fans": "cooling fans",
};

const categoryWords = `case "category" ${Object.entries(CATEGORY_SEARCH_WORDS)
  .map(([category, words]) => `when '${category}' then '${words}'`)
  .join(" ")} end`;

/**
 * A lexeme no text can make (it holds a space) naming the product's category, in both documents:
 * a search within a category adds it to its query, so the GIN index alone narrows to the category
 * (words and categories go together: "fan" among mice would otherwise read every fan to drop it).
 */
export const categoryLexeme = (category: (typeof CATEGORIES)[number]) => `category ${category}`;

const categoryTag = `array_to_tsvector(array[case "category" ${CATEGORIES.map(
  (category) => `when '${category}' then '${categoryLexeme(category)}'`,
).join(" ")} end])`;

/** The partial indexes' predicate: a product on sale (not archived). */
const live = (t: { archivedAt: AnyPgColumn }) => sql`${t.archivedAt} is null`;

/** A full-text document (PostgreSQL tsvector); written by PostgreSQL only, never read by the shop. */
const tsvector = customType<{ data: string }>({ dataType: () => "tsvector" });

/** The product's name (weight A), its category's words (B), in English, and its category's tag: what the product is. */
const titleDocument = `setweight(to_tsvector('english', "name"), 'A') || setweight(to_tsvector('english', ${categoryWords}), 'B') || ${categoryTag}`;

export const products = pgTable(
  "product",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    name: text("name").notNull(),
    description: text("description").notNull(),
    image: text("image").notNull(),
    /** Unit price in whole US dollars. */
    price: integer("price").notNull(),
    /**
     * Volume prices: `[{ "min": 50, "price": 22 }, …]`, ascending by `min`, each a lower whole-dollar
     * unit price than the one before (features/catalog validates; tier_price in migration 0024 applies).
     */
    priceTiers: jsonb("price_tiers")
      .$type<{ min: number; price: number }[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    /** Available stock. */
    quantity: integer("quantity").notNull(),
    category: categoryEnum("category").notNull(),
    /**
     * The shop's own code for the product, unique, by which a CSV import finds it (features/catalog/
     * csv-import.ts). Given by the admin or, when not, made from product_sku_seq (migration 0019).
     */
    sku: text("sku").notNull().default(sql`'GH-' || lpad(nextval('product_sku_seq')::text, 6, '0')`),
    /**
     * When an admin archived (retired) the product; null while it is on sale. An archived product
     * leaves the storefront and cannot be booked; its orders, invoices and admin views keep it.
     */
    archivedAt: moment("archived_at"),
    /** Below this stock the admins are told (features/stock); null: the shop's default (LOW_STOCK_THRESHOLD). */
    lowStockThreshold: integer("low_stock_threshold"),
    ...timestamps(),
    /** What the product is (see titleDocument): a search matching here ranks above the description. */
    titleVector: tsvector("title_vector").generatedAlwaysAs(sql.raw(titleDocument)),
    /** The title and the description (weight C): everything a search may match. */
    searchVector: tsvector("search_vector").generatedAlwaysAs(
      sql.raw(`${titleDocument} || setweight(to_tsvector('english', "description"), 'C')`),
    ),
  },
  (t) => [
    check("product_price_positive", sql`${t.price} > 0`),
    check("product_price_tiers_array", sql`jsonb_typeof(${t.priceTiers}) = 'array'`),
    check("product_quantity_nonnegative", sql`${t.quantity} >= 0`),
    check("product_low_stock_threshold_range", sql`${t.lowStockThreshold} >= 0`),
    // The storefront's pages in each order, of live products only (migration 0017): archived
    // products cost its pages nothing, and a page is still read index-only up to its rows.
    index("product_name_idx").on(t.name, t.id).where(live(t)),
    index("product_price_idx").on(t.price, t.id).where(live(t)),
    index("product_created_idx").on(t.createdAt, t.id).where(live(t)),
    // A category's pages in each order, read index-only up to the page (listProducts' deferred join).
    index("product_category_name_idx").on(t.category, t.name, t.id).where(live(t)),
    index("product_category_price_idx").on(t.category, t.price, t.id).where(live(t)),
    index("product_category_created_idx").on(t.category, t.createdAt, t.id).where(live(t)),
    // The admin's archived products, most recently archived first.
    index("product_archived_idx").on(t.archivedAt, t.id).where(sql`${t.archivedAt} is not null`),
    index("product_title_idx").using("gin", t.titleVector),
    index("product_search_idx").using("gin", t.searchVector),
    // A search text found inside names ("65%", "DDR5-60"); needs the pg_trgm extension.
    index("product_name_trgm_idx").using("gin", t.name.op("gin_trgm_ops")),
    // The image sweep asks whether any product shows an image (features/uploads/sweep.ts).
    index("product_image_idx").on(t.image),
    // The import finds products by SKU, and the export walks them in its order.
    uniqueIndex("product_sku_idx").on(t.sku),
  ],
);

/**
 * Every word of every product's name and description as written (lower case, unstemmed), and the
 * categories' words, so a misspelt search word can be matched to the nearest real ones by trigram
 * similarity ("keybord" to "keyboard"). Filled by triggers on product (see the migration); words of
 * removed or reworded products stay, harmless: they only widen a misspelt search to a word that
 * matches nothing.
 */
export const searchWords = pgTable("search_word", { word: text("word").primaryKey() }, (t) => [
  index("search_word_trgm_idx").using("gin", t.word.op("gin_trgm_ops")),
]);

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
    createdAt: createdAt(),
    /** Hidden by an admin (docs/product.md, "Review moderation"): out of every public list. */
    hiddenAt: moment("hidden_at"),
    /** The admin's email then, and the reason the author is shown. */
    hiddenBy: text("hidden_by"),
    hiddenReason: text("hidden_reason"),
  },
  (t) => [
    check("review_rating_range", sql`${t.rating} between 0 and 5`),
    check("review_hidden_with_reason", sql`(${t.hiddenAt} is null) = (${t.hiddenReason} is null)`),
    // Newest first, a page at a time, of the reviews on show. Ascending on purpose: "ORDER BY
    // created_at DESC" means NULLS FIRST, which a backward scan of this index gives and an index
    // declared DESC (NULLS LAST) does not.
    index("review_newest_idx").on(t.createdAt, t.id).where(sql`hidden_at is null`),
    // The hidden ones, last hidden first (the moderation page).
    index("review_hidden_idx").on(t.hiddenAt, t.id).where(sql`hidden_at is not null`),
    index("review_user_idx").on(t.userId, t.createdAt, t.id),
  ],
);

/**
 * A customer's report of a review (docs/product.md, "Review moderation"): one per customer and
 * review, read by admins newest first. Goes with the review or the account.
 */
export const reviewReports = pgTable(
  "review_report",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    reviewId: uuid("review_id")
      .notNull()
      .references(() => reviews.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    reason: text("reason").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("review_report_once_idx").on(t.reviewId, t.userId),
    index("review_report_newest_idx").on(t.createdAt, t.id),
  ],
);
