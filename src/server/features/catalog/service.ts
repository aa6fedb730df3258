import { asc, desc, eq, sql } from "drizzle-orm";
import type { z } from "zod";
import type {
  Product,
  ProductList,
  ProductListQuery,
  ProductPatch,
  productInputSchema,
} from "../../../shared/catalog.js";
import { SEARCH_COUNT_LIMIT } from "../../../shared/constants.js";
import { catalogCsvMessages } from "../../../shared/messages/catalog-csv.js";
import type { Db } from "../../db/client.js";
import { products } from "../../db/schema/index.js";
import { hasSqlState } from "../../db/sql-state.js";
import { conflict } from "../../lib/problem.js";
import type { CatalogChange } from "./changes.js";

export const productColumns = {
  id: products.id,
  name: products.name,
  description: products.description,
  image: products.image,
  price: products.price,
  quantity: products.quantity,
  category: products.category,
  sku: products.sku,
};

export const ORDERINGS = {
  // Without a search term every product is equally relevant (see effectiveProductSort).
  relevance: [asc(products.name), asc(products.id)],
  "name-asc": [asc(products.name), asc(products.id)],
  "name-desc": [desc(products.name), desc(products.id)],
  "price-asc": [asc(products.price), asc(products.id)],
  "price-desc": [desc(products.price), desc(products.id)],
  newest: [desc(products.createdAt), desc(products.id)],
} as const;

/**
 * One page of the catalog, or of a category; searches are search.ts's. The count stops at
 * SEARCH_COUNT_LIMIT ("more than 1,000"), as a search's does: counting a whole category on every
 * page read every row of it (76 ms at 100,000 products, npm run bench:scale), while the page
 * itself reads only index entries up to its rows, and then its rows.
 */
export async function listProducts(db: Db, query: ProductListQuery): Promise<ProductList> {
  const where = query.category ? eq(products.category, query.category) : undefined;
  // A deferred join: the page's ids are found in the sort's index alone (index-only, from the
  // index's (category,) sort key and id), and only the page's rows are then read from the table.
  // Page 1,000 of a category at 100,000 products reads 115 index pages where the plain
  // OFFSET read the 12,000 rows before it from the table too.
  const onPage = db
    .select({ id: products.id })
    .from(products)
    .where(where)
    .orderBy(...ORDERINGS[query.sort])
    .limit(query.pageSize)
    .offset((query.page - 1) * query.pageSize)
    .as("on_page");
  const capped = db
    .select({ one: sql`1` })
    .from(products)
    .where(where)
    .limit(SEARCH_COUNT_LIMIT + 1)
    .as("capped");
  const [rows, [count]] = await Promise.all([
    db
      .select(productColumns)
      .from(products)
      .innerJoin(onPage, eq(products.id, onPage.id))
      .orderBy(...ORDERINGS[query.sort]),
    db.select({ n: sql<number>`count(*)::int` }).from(capped),
  ]);
  const n = count?.n ?? 0;
  return n > SEARCH_COUNT_LIMIT
    ? { items: rows, total: SEARCH_COUNT_LIMIT, totalExact: false }
    : { items: rows, total: n, totalExact: true };
}

export async function getProduct(db: Db, id: string): Promise<Product | undefined> {
  const [row] = await db.select(productColumns).from(products).where(eq(products.id, id));
  return row;
}

/** A SKU another product has is a 409, not a 500. */
function skuTaken(error: unknown): never {
  if (
    hasSqlState(error, "23505") &&
    String(
      (error as { cause?: { constraint?: string } }).cause?.constraint ??
        (error as { constraint?: string }).constraint,
    ).includes("sku")
  )
    throw conflict(catalogCsvMessages.skuTaken);
  throw error;
}

/** Every instance drops its cached catalog answers when this commits (see changes.ts). */
export async function createProduct(
  db: Db,
  input: z.output<typeof productInputSchema>,
  change: CatalogChange,
): Promise<Product> {
  const [row] = await db
    .insert(products)
    .values(input)
    .returning({ ...productColumns, notified: change() })
    .catch(skuTaken);
  if (!row) throw new Error("product insert returned nothing");
  const { notified: _notified, ...product } = row;
  return product;
}

/**
 * Changes the given fields; undefined when there is no such product. A name, price or category
 * may move the product between pages, so every instance drops all its cached catalog answers.
 */
export async function updateProduct(
  db: Db,
  id: string,
  patch: ProductPatch,
  change: CatalogChange,
): Promise<Product | undefined> {
  const [row] = await db
    .update(products)
    .set({ ...patch, updatedAt: new Date() })
    .where(eq(products.id, id))
    .returning({ ...productColumns, notified: change() })
    .catch(skuTaken);
  if (!row) return undefined;
  const { notified: _notified, ...product } = row;
  return product;
}
