import { type SQL, sql } from "drizzle-orm";
import type { CatalogCache } from "./cache.js";
import { CATALOG_CHANNEL, EVERYTHING } from "./listener.js";

/**
 * Names what a write changes and gives back the pg_notify to put in the RETURNING list of the
 * statement that writes it: the id of the product whose stock moves, or nothing when any product
 * may have changed (added, renamed, repriced, moved between categories).
 */
export type CatalogChange = (productId?: string) => SQL<string>;

/**
 * The notification that tells every instance's listener that the product `productId` (an id, or a
 * parameter of a prepared statement) changed, delivered when the statement's transaction commits.
 */
export const productChangeNotice = (productId: SQL | string) =>
  sql<string>`pg_notify(${CATALOG_CHANNEL}, ${productId}::text)`;

/**
 * The one way a write through the shop tells every instance's catalog cache what it changed
 * (docs/decisions/catalog-cache.md). `write` calls `change` while building each statement that
 * writes products. PostgreSQL delivers the notification to every instance's listener when, and
 * only when, that statement's transaction commits, at no extra round trip. This instance drops its
 * own answers once `write` has returned, that is after the commit and before the response, without
 * waiting for its listener: the writer's next request never sees the old stock. A write that
 * throws committed nothing and drops nothing.
 */
export async function changeCatalog<T>(
  cache: CatalogCache,
  write: (change: CatalogChange) => Promise<T>,
): Promise<T> {
  const changed = new Set<string>();
  const result = await write((productId = EVERYTHING) => {
    changed.add(productId);
    return productChangeNotice(productId);
  });
  for (const productId of changed) {
    if (productId === EVERYTHING) cache.everythingChanged();
    else cache.productChanged(productId);
  }
  return result;
}
