import { type SQL, sql } from "drizzle-orm";
import type { CatalogCache } from "./cache.js";
import { CATALOG_CHANNEL, EVERYTHING } from "./listener.js";

/**
 * Names what a write changes. `change(productId)`: the stock of that product moves; nothing goes in
 * the statement, the instance tells the others once the write has committed (gathered, on the
 * listener's connection: listener.ts). `change()`: any product may have changed (added, renamed,
 * repriced, moved between categories, archived): it gives back the pg_notify to put in the
 * RETURNING list of the statement that writes it, delivered when, and only when, its transaction
 * commits.
 */
export interface CatalogChange {
  (productId: string): void;
  (): SQL<string>;
}

/**
 * The notification that tells every instance's listener that anything in the catalog may have
 * changed, delivered when the statement's transaction commits. Rare (an admin's edit): the lock a
 * notifying commit holds (order-stalls.md) costs nothing at that rate.
 */
const everythingChangedNotice = () => sql<string>`pg_notify(${CATALOG_CHANNEL}, ${EVERYTHING}::text)`;

/**
 * The one way a write through the shop tells every instance's catalog cache what it changed
 * (docs/decisions/catalog-cache.md). `write` calls `change` for what it writes. This instance drops
 * its own answers once `write` has returned, that is after the commit and before the response,
 * without waiting for its listener: the writer's next request never sees the old stock. The other
 * instances hear of a change of everything at the commit, and of a product's stock just after it
 * (CatalogCache.productChangedHere). A write that throws committed nothing and drops nothing.
 */
export async function changeCatalog<T>(
  cache: CatalogCache,
  write: (change: CatalogChange) => Promise<T>,
): Promise<T> {
  const changed = new Set<string>();
  function change(): SQL<string>;
  function change(productId: string): void;
  function change(productId?: string): SQL<string> | undefined {
    if (productId !== undefined) {
      changed.add(productId);
      return undefined;
    }
    changed.add(EVERYTHING);
    return everythingChangedNotice();
  }
  const result = await write(change);
  if (changed.has(EVERYTHING)) cache.everythingChanged();
  for (const productId of changed) if (productId !== EVERYTHING) cache.productChangedHere(productId);
  return result;
}
