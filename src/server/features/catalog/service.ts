import { and, asc, desc, eq, isNotNull, isNull, type SQL, sql } from "drizzle-orm";
import type { z } from "zod";
import type {
  AdminProduct,
  AdminProductList,
  AdminProductListQuery,
  Product,
  ProductList,
  ProductListQuery,
  ProductPatch,
  productInputSchema,
} from "../../../shared/catalog.js";
import { SEARCH_COUNT_LIMIT } from "../../../shared/constants.js";
import { formatPrice } from "../../../shared/format.js";
import { catalogCsvMessages } from "../../../shared/messages/catalog-csv.js";
import { pricingMessages } from "../../../shared/messages/pricing.js";
import { stockMessages } from "../../../shared/messages/stock.js";
import { type PriceTier, tiersAbovePrice, tiersBelowPrice } from "../../../shared/pricing.js";
import type { Db } from "../../db/client.js";
import { orders, products } from "../../db/schema/index.js";
import { violatesUnique } from "../../db/sql-state.js";
import { badRequest, conflict, fieldErrors } from "../../lib/problem.js";
import { stockCause } from "../../lib/stock.js";
import { type Actor, changesOf, recordActivity } from "../activity/index.js";
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
  priceTiers: products.priceTiers,
};

/**
 * A product on sale: what every storefront read (lists, search, a product's page, the home page)
 * asks for. The storefront's indexes hold only these products (migration 0017), so a read that
 * leaves this out cannot use them.
 */
export const onSale = isNull(products.archivedAt);

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
  const where = query.category ? and(onSale, eq(products.category, query.category)) : onSale;
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
  const [items, counted] = await Promise.all([
    db
      .select(productColumns)
      .from(products)
      .innerJoin(onPage, eq(products.id, onPage.id))
      .orderBy(...ORDERINGS[query.sort]),
    countUpToLimit(db, where),
  ]);
  return { items, ...counted };
}

/**
 * How many products `where` holds, exact up to SEARCH_COUNT_LIMIT ("more than 1,000" past it): a
 * count that reads at most that many index entries, whatever the list's size.
 */
async function countUpToLimit(
  db: Db,
  where: SQL | undefined,
): Promise<{ total: number; totalExact: boolean }> {
  const capped = db
    .select({ one: sql`1` })
    .from(products)
    .where(where)
    .limit(SEARCH_COUNT_LIMIT + 1)
    .as("capped");
  const [count] = await db.select({ n: sql<number>`count(*)::int` }).from(capped);
  const n = count?.n ?? 0;
  return n > SEARCH_COUNT_LIMIT
    ? { total: SEARCH_COUNT_LIMIT, totalExact: false }
    : { total: n, totalExact: true };
}

/** A product, archived or not (the caller tells a visitor an archived one is no longer sold). */
export async function getProduct(db: Db, id: string): Promise<AdminProduct | undefined> {
  const [row] = await db.select(adminProductColumns).from(products).where(eq(products.id, id));
  return row && toAdminProduct(row);
}

const adminProductColumns = { ...productColumns, archivedAt: products.archivedAt };

function toAdminProduct({ archivedAt, ...product }: Product & { archivedAt: Date | null }): AdminProduct {
  return { ...product, archivedAt: archivedAt?.toISOString() ?? null };
}

/**
 * The admin's products, a page at a time: those on sale newest first (product_created_idx, which
 * holds them only), or the archived ones most recently archived first (product_archived_idx).
 * Counted up to SEARCH_COUNT_LIMIT, as the storefront's lists are.
 */
export async function listAdminProducts(db: Db, query: AdminProductListQuery): Promise<AdminProductList> {
  const where = query.archived ? isNotNull(products.archivedAt) : onSale;
  const order = query.archived
    ? [desc(products.archivedAt), desc(products.id)]
    : [desc(products.createdAt), desc(products.id)];
  const [rows, counted] = await Promise.all([
    db
      .select(adminProductColumns)
      .from(products)
      .where(where)
      .orderBy(...order)
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize),
    countUpToLimit(db, where),
  ]);
  return { items: rows.map(toAdminProduct), ...counted };
}

/** A SKU another product has is a 409, not a 500. */
function skuTaken(error: unknown): never {
  if (violatesUnique(error, "sku")) throw conflict(catalogCsvMessages.skuTaken);
  throw error;
}

/** Every instance drops its cached catalog answers when this commits (see changes.ts). */
export async function createProduct(
  db: Db,
  input: z.output<typeof productInputSchema>,
  change: CatalogChange,
  actor?: Actor,
): Promise<Product> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(products)
      .values(input)
      .returning({ ...productColumns, notified: change() })
      .catch(skuTaken);
    if (!row) throw new Error("product insert returned nothing");
    const { notified: _notified, ...product } = row;
    if (actor) {
      const changes = changesOf<Record<string, unknown>>(null, input);
      await recordActivity(tx, actor, {
        action: "product.created",
        targetType: "product",
        targetId: row.id,
        changes,
      });
    }
    return product;
  });
}

/**
 * Changes the given fields; undefined when there is no such product. A name, price or category
 * may move the product between pages, so every instance drops all its cached catalog answers.
 * A new quantity is an admin's adjustment in the stock ledger (features/stock), noted as made in
 * the product's form; `adminId` is who made it.
 */
export async function updateProduct(
  db: Db,
  id: string,
  patch: ProductPatch,
  change: CatalogChange,
  adminId: string | null = null,
  actor?: Actor,
): Promise<AdminProduct | undefined> {
  return db.transaction(async (tx) => {
    if (patch.quantity !== undefined)
      await stockCause(tx, { reason: "adjustment", adminId, note: stockMessages.formNote });
    // The fields as they were, for the activity log and to check a new price or new tiers against
    // the other as stored; locked as the update would lock them, so no change slips in between.
    const repriced = patch.price !== undefined || patch.priceTiers !== undefined;
    const [before] =
      actor || repriced
        ? await tx.select().from(products).where(eq(products.id, id)).for("no key update")
        : [];
    if (before && repriced) refuseTiersAbovePrice(patch, before);
    const [row] = await tx
      .update(products)
      .set({ ...patch, updatedAt: new Date() })
      .where(eq(products.id, id))
      .returning({ ...adminProductColumns, notified: change() })
      .catch(skuTaken);
    if (!row) return undefined;
    if (actor) {
      const changes = changesOf<Record<string, unknown>>(before ?? null, patch);
      await recordActivity(tx, actor, {
        action: "product.updated",
        targetType: "product",
        targetId: id,
        changes,
      });
    }
    const { notified: _notified, ...product } = row;
    return toAdminProduct(product);
  });
}

/**
 * Refuses (400) a change that would leave a volume price at or above the list price: new tiers
 * against the new or stored price (the issue at each such tier), or a new price alone against the
 * stored tiers (the issue at the price). The booking prices by the stored tiers (tier_price), so a
 * tier at or above the list price would charge more for more units.
 */
function refuseTiersAbovePrice(
  patch: ProductPatch,
  stored: { price: number; priceTiers: PriceTier[] },
): void {
  const price = patch.price ?? stored.price;
  if (patch.priceTiers) {
    const issues = tiersAbovePrice(patch.priceTiers, price);
    const first = issues[0];
    if (first) throw badRequest(first.message, fieldErrors(issues));
    return;
  }
  if (tiersBelowPrice(stored.priceTiers, price)) return;
  const highest = formatPrice(Math.max(...stored.priceTiers.map((t) => t.price)));
  const message = pricingMessages.tiers.priceNotAboveTiers(highest);
  throw badRequest(message, [{ path: "price", message }]);
}

/**
 * Archives (true) or restores (false) a product; undefined when there is no such product. Doing
 * it twice changes nothing (an archived product keeps the moment it was first archived). The
 * product leaves or rejoins every list, so every instance drops all its cached catalog answers.
 * An archive waits for a booking that holds the product's row and is then final for every booking
 * after it (the trigger of migration 0017); orders placed before it stay payable until their hold
 * ends, and keep their product.
 */
export async function setArchived(
  db: Db,
  id: string,
  archived: boolean,
  change: CatalogChange,
  actor?: Actor,
): Promise<AdminProduct | undefined> {
  return db.transaction(async (tx) => {
    const [before] = actor
      ? await tx
          .select({ archivedAt: products.archivedAt })
          .from(products)
          .where(eq(products.id, id))
          .for("no key update")
      : [];
    const [row] = await tx
      .update(products)
      .set({
        archivedAt: archived ? sql`coalesce(${products.archivedAt}, now())` : null,
        updatedAt: new Date(),
      })
      .where(eq(products.id, id))
      .returning({ ...adminProductColumns, notified: change() });
    if (!row) return undefined;
    const { notified: _notified, ...product } = row;
    // Only an archive or restore that changed something is an entry: doing it twice is not.
    if (actor && (before?.archivedAt != null) !== archived) {
      await recordActivity(tx, actor, {
        action: archived ? "product.archived" : "product.restored",
        targetType: "product",
        targetId: id,
        changes: { archivedAt: [before?.archivedAt ?? null, row.archivedAt] },
      });
    }
    return toAdminProduct(product);
  });
}

/** Why deleting a product was refused. */
export type DeleteRefusal = "not-found" | "ordered";

/**
 * Deletes a product that was never ordered (no order refers to it, order_product_idx); otherwise
 * says why not. The product's row is locked first, so a booking cannot slip an order in between
 * the check and the delete: it waits for the row, and then finds no product.
 */
export async function deleteProduct(
  db: Db,
  id: string,
  change: CatalogChange,
  actor?: Actor,
): Promise<DeleteRefusal | undefined> {
  return db.transaction(async (tx) => {
    const [locked] = await tx
      .select({ id: products.id, name: products.name, sku: products.sku })
      .from(products)
      .where(eq(products.id, id))
      .for("update");
    if (!locked) return "not-found";
    // A statement of its own, so its snapshot sees every order committed before the lock was had.
    const [ordered] = await tx.select({ one: sql`1` }).from(orders).where(eq(orders.productId, id)).limit(1);
    if (ordered) return "ordered";
    await tx.delete(products).where(eq(products.id, id)).returning({ notified: change() });
    if (actor) {
      const changes = changesOf<Record<string, unknown>>(locked, {}, ["name", "sku"]);
      await recordActivity(tx, actor, {
        action: "product.deleted",
        targetType: "product",
        targetId: id,
        changes,
      });
    }
    return undefined;
  });
}
