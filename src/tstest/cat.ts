import { z } from "zod";
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from "../shared/constants.js";

export const CATEGORIES = ["keyboards", "mice", "memory", "headphones", "cooling-fans"] as const;
export type Category = (typeof CATEGORIES)[number];

export const CATEGORY_LABELS: Record<Category, string> = {
  keyboards: "Keyboards",
  mice: "Mice",
  memory: "Memory",
  headphones: "Headphones",
  "cooling-fans": "Cooling fans",
};

export const PRODUCT_SORTS = ["name-asc", "name-desc", "price-asc", "price-desc", "newest"] as const;
export type ProductSort = (typeof PRODUCT_SORTS)[number];




