import { z } from "zod";
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from "./constants.js";

export const CATEGORIES = ["keyboards", "mice", "memory", "headphones", "cooling-fans"] as const;
export type Category = (typeof CATEGORIES)[number];
export const categorySchema = z.enum(CATEGORIES);

export const CATEGORY_LABELS: Record<Category, string> = {
  keyboards: "Keyboards",
  mice: "Mice",
  memory: "Memory",
  headphones: "Headphones",
  "cooling-fans": "Cooling fans",
};

export const PRODUCT_SORTS = ["name-asc", "name-desc", "price-asc", "price-desc", "newest"] as const;
export type ProductSort = (typeof PRODUCT_SORTS)[number];

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
});
export type Product = z.infer<typeof productSchema>;

export const productListQuerySchema = z.object({
  search: z.string().trim().max(100).optional().default(""),
  category: categorySchema.optional(),
  sort: z.enum(PRODUCT_SORTS).optional().default("name-asc"),
  page: z.coerce.number().int().min(1).max(10_000).optional().default(1),
  pageSize: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).optional().default(DEFAULT_PAGE_SIZE),
});
export type ProductListQuery = z.infer<typeof productListQuerySchema>;

export const productListSchema = z.object({
  items: z.array(productSchema),
  total: z.number().int(),
});
export type ProductList = z.infer<typeof productListSchema>;

export const productIdParamsSchema = z.object({ id: z.uuid() });
