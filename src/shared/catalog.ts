import { z } from "zod";
import {
  CATEGORIES,
  DEFAULT_PAGE_SIZE,
  effectiveProductSort,
  MAX_PAGE_SIZE,
  PRODUCT_QUANTITY_MAX,
  PRODUCT_SORTS,
  type ProductSort,
  SEARCH_COUNT_LIMIT,
} from "./constants.js";
import { adminMessages } from "./messages/admin.js";
import { catalogCsvMessages } from "./messages/catalog-csv.js";
import { checkTiersBelowPrice, priceTiersSchema } from "./pricing.js";
import { requiredText } from "./text.js";
import { UPLOADED_IMAGE_PATTERN } from "./uploads.js";

export { CATEGORIES, type Category } from "./constants.js";

const categorySchema = z.enum(CATEGORIES);

export const productSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  image: z.string(),
  /** Unit price in whole US dollars. */
  price: z.number().int(),
  /** Available stock. */
  quantity: z.number().int(),
  category: categorySchema,
  /** The shop's own code for the product, unique (the CSV import finds products by it). */
  sku: z.string(),
  /** Volume prices (docs/product.md, "Prices"): from `min` units, `price` each; ascending. */
  priceTiers: z.array(z.object({ min: z.number().int(), price: z.number().int() })),
});
export type Product = z.infer<typeof productSchema>;

export const productListQuerySchema = z.object({
  search: z.string().trim().max(100).optional().default(""),
  category: categorySchema.optional(),
  /** Unset: by relevance while searching, otherwise by name (see effectiveProductSort). */
  sort: z
    .enum(PRODUCT_SORTS)
    .optional()
    .describe("Unset: relevance while searching, name-asc otherwise; relevance without a search is name-asc"),
  page: z.coerce.number().int().min(1).max(10_000).optional().default(1),
  pageSize: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).optional().default(DEFAULT_PAGE_SIZE),
});
/** A list query as the server answers it: the order resolved, so equal lists have equal queries. */
export type ProductListQuery = Omit<z.infer<typeof productListQuerySchema>, "sort"> & { sort: ProductSort };

export function resolveProductListQuery(query: z.infer<typeof productListQuerySchema>): ProductListQuery {
  return { ...query, sort: effectiveProductSort(query.sort, query.search) };
}

export const productListSchema = z.object({
  items: z.array(productSchema),
  /** Every matching product, except that a search stops counting at SEARCH_COUNT_LIMIT (see totalExact). */
  total: z.number().int(),
  /** False when a search matches more than `total` (= SEARCH_COUNT_LIMIT) products: "more than". */
  totalExact: z.boolean().describe(`False when a search matches more than ${SEARCH_COUNT_LIMIT} products`),
});
export type ProductList = z.infer<typeof productListSchema>;

export const productIdParamsSchema = z.object({ id: z.uuid() });

/** The shop's own art under /media (no dots in folder names, so no way out of it). */
export const SHOP_MEDIA_PATTERN = /^\/media\/(?:[a-z0-9-]+\/)*[a-z0-9-]+\.(?:svg|webp|png|jpe?g|gif)$/;

const PRODUCT_NAME_MAX_LENGTH = 120;
const PRODUCT_DESCRIPTION_MAX_LENGTH = 2000;
/** Whole dollars per unit; a product is never given away. */
const PRODUCT_PRICE_MIN = 1;
/** Whole dollars per unit; far above any part the shop sells, low enough to catch a typo of zeros. */
export const PRODUCT_PRICE_MAX = 100_000;

const m = adminMessages.products;

const SKU_MAX_LENGTH = 40;
const SKU_PATTERN = /^[A-Z0-9][A-Z0-9._-]*$/;
/** A SKU as kept: trimmed, upper case (so "kb-1" and "KB-1" are one product). */
export const skuSchema = z
  .string({ error: catalogCsvMessages.skuInvalid(SKU_MAX_LENGTH) })
  .trim()
  .toUpperCase()
  .min(1, catalogCsvMessages.skuInvalid(SKU_MAX_LENGTH))
  .max(SKU_MAX_LENGTH, catalogCsvMessages.skuInvalid(SKU_MAX_LENGTH))
  .regex(SKU_PATTERN, catalogCsvMessages.skuInvalid(SKU_MAX_LENGTH));
const priceInvalid = m.priceInvalid(PRODUCT_PRICE_MIN);

/** A product's fields, each checked alone (the schemas below check price and tiers together). */
export const productFieldsSchema = z.object({
  name: requiredText(m.nameRequired, PRODUCT_NAME_MAX_LENGTH, m.nameTooLong(PRODUCT_NAME_MAX_LENGTH)),
  image: z
    .string({ error: m.imageInvalid })
    .trim()
    .refine((url) => UPLOADED_IMAGE_PATTERN.test(url) || SHOP_MEDIA_PATTERN.test(url), m.imageInvalid),
  price: z
    .number({ error: priceInvalid })
    .int(priceInvalid)
    .min(PRODUCT_PRICE_MIN, priceInvalid)
    .max(PRODUCT_PRICE_MAX, m.priceTooHigh(PRODUCT_PRICE_MAX)),
  quantity: z
    .number({ error: m.quantityInvalid })
    .int(m.quantityInvalid)
    .min(0, m.quantityInvalid)
    .max(PRODUCT_QUANTITY_MAX, m.quantityTooHigh(PRODUCT_QUANTITY_MAX)),
  description: requiredText(
    m.descriptionRequired,
    PRODUCT_DESCRIPTION_MAX_LENGTH,
    m.descriptionTooLong(PRODUCT_DESCRIPTION_MAX_LENGTH),
  ),
  category: z.enum(CATEGORIES, { error: m.categoryInvalid }),
  /** Unset (or empty, as a form sends it): the shop makes one (GH-000123). */
  sku: z
    .string({ error: catalogCsvMessages.skuInvalid(SKU_MAX_LENGTH) })
    .pipe(z.union([z.literal("").transform(() => undefined), skuSchema]))
    .optional(),
  /** Volume prices (docs/product.md, "Prices"), each below `price`; unset: none. */
  priceTiers: priceTiersSchema.optional(),
});

/** POST /api/products: a new product; every field required but the SKU and volume prices. */
export const productInputSchema = productFieldsSchema.superRefine(checkTiersBelowPrice);
export type ProductInput = z.input<typeof productInputSchema>;

/**
 * PATCH /api/products/:id: any of the fields (restock, reprice, reword); at least one. A new price
 * or new tiers are checked against each other as stored too (features/catalog/service.ts).
 */
export const productPatchSchema = productFieldsSchema
  .partial()
  .superRefine(checkTiersBelowPrice)
  .refine((patch) => Object.values(patch).some((v) => v !== undefined), m.nothingToChange);
export type ProductPatch = z.input<typeof productPatchSchema>;

/**
 * A product as the admin screens show it: its fields, and when it was archived (null while it is
 * on sale). Issue 31's low-stock threshold joins these fields with migration 0018.
 */
export const adminProductSchema = productSchema.extend({
  /** ISO 8601; null while the product is on sale. */
  archivedAt: z.string().nullable(),
});
export type AdminProduct = z.infer<typeof adminProductSchema>;

/** GET /api/admin/products: the products on sale (newest first) or the archived ones (latest first). */
export const adminProductListQuerySchema = z.object({
  archived: z
    .enum(["true", "false"])
    .optional()
    .default("false")
    .transform((v) => v === "true")
    .describe(
      "true: the archived products, most recently archived first; otherwise those on sale, newest first",
    ),
  page: z.coerce.number().int().min(1).max(10_000).optional().default(1),
  pageSize: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).optional().default(DEFAULT_PAGE_SIZE),
});
export type AdminProductListQuery = z.output<typeof adminProductListQuerySchema>;

export const adminProductListSchema = z.object({
  items: z.array(adminProductSchema),
  /** Every matching product, up to SEARCH_COUNT_LIMIT (see totalExact). */
  total: z.number().int(),
  totalExact: z.boolean(),
});
export type AdminProductList = z.infer<typeof adminProductListSchema>;
