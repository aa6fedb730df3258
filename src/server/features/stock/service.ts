import { and, desc, eq, lt, sql } from "drizzle-orm";
import { PRODUCT_QUANTITY_MAX } from "../../../shared/constants.js";
import { stockMessages as m } from "../../../shared/messages/stock.js";
import type {
  LowStockThresholdInput,
  ProductStock,
  StockAdjusted,
  StockAdjustment,
  StockHistory,
  StockHistoryQuery,
  StockMovement,
} from "../../../shared/stock.js";
import { STOCK_HISTORY_PAGE_SIZE } from "../../../shared/stock.js";
import type { Db, Tx } from "../../db/client.js";
import { lowStockProducts, products, stockMovements, stockSetting, users } from "../../db/schema/index.js";
import { conflict, notFound } from "../../lib/problem.js";
import { stockCause } from "../../lib/stock.js";
import { type Actor, recordActivity } from "../activity/index.js";
import type { CatalogChange } from "../catalog/index.js";

const stockColumns = {
  id: products.id,
  name: products.name,
  quantity: products.quantity,
  lowStockThreshold: products.lowStockThreshold,
  defaultThreshold: sql<number>`(select ${stockSetting.lowStockDefault} from ${stockSetting} where ${stockSetting.id})`,
};

type StockRow = Omit<ProductStock, "threshold">;
const withThreshold = (row: StockRow): ProductStock => ({
  ...row,
  threshold: row.lowStockThreshold ?? row.defaultThreshold,
});

/** A product's stock and thresholds; 404 when there is no such product. */
export async function getStock(db: Db | Tx, productId: string): Promise<ProductStock> {
  const [row] = await db.select(stockColumns).from(products).where(eq(products.id, productId));
  if (!row) throw notFound(m.notFound);
  return withThreshold(row);
}

const movementColumns = {
  id: sql<string>`${stockMovements.id}::text`,
  at: sql<string>`to_char(${stockMovements.createdAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`,
  reason: stockMovements.reason,
  change: stockMovements.change,
  before: sql<number>`${stockMovements.stockAfter} - ${stockMovements.change}`,
  after: stockMovements.stockAfter,
  orderId: stockMovements.orderId,
  adminId: stockMovements.adminId,
  adminName: users.name,
  note: stockMovements.note,
};

/**
 * An admin's adjustment, in one transaction: the product's row locked (FOR NO KEY UPDATE, the
 * lock an update takes: a booking's order insert holds the product's key share (its foreign key)
 * until it updates the product, and FOR UPDATE would queue behind that share while holding the
 * row's place before the booking's update: a deadlock), the new stock worked out
 * from it, the cause named for the ledger (stockCause), then the update, whose trigger writes the
 * movement. Taking away more than is in stock, or adding beyond PRODUCT_QUANTITY_MAX, changes
 * nothing (409). Setting the stock it already has changes nothing either, and answers no movement.
 */
export async function adjustStock(
  db: Db,
  productId: string,
  adminId: string,
  input: StockAdjustment,
  change: CatalogChange,
  actor?: Actor,
): Promise<StockAdjusted> {
  return db.transaction(async (tx) => {
    const [locked] = await tx
      .select({ quantity: products.quantity })
      .from(products)
      .where(eq(products.id, productId))
      .for("no key update");
    if (!locked) throw notFound(m.notFound);
    const target =
      input.mode === "set"
        ? input.quantity
        : input.mode === "add"
          ? locked.quantity + input.units
          : locked.quantity - input.units;
    if (target < 0) throw conflict(m.belowZero(locked.quantity));
    if (target > PRODUCT_QUANTITY_MAX) throw conflict(m.tooHigh(PRODUCT_QUANTITY_MAX));
    if (target === locked.quantity) return { stock: await getStock(tx, productId), movement: null };
    await stockCause(tx, { reason: "adjustment", adminId, note: input.note.trim() });
    await tx
      .update(products)
      .set({ quantity: target, updatedAt: new Date() })
      .where(eq(products.id, productId));
    change(productId);
    if (actor) {
      await recordActivity(tx, actor, {
        action: "stock.adjusted",
        targetType: "product",
        targetId: productId,
        changes: { quantity: [locked.quantity, target], note: [null, input.note.trim()] },
      });
    }
    // The newest movement of the product is this one: its row is locked until the commit.
    const [movement] = await tx
      .select(movementColumns)
      .from(stockMovements)
      .leftJoin(users, eq(users.id, stockMovements.adminId))
      .where(eq(stockMovements.productId, productId))
      .orderBy(desc(stockMovements.id))
      .limit(1);
    return { stock: await getStock(tx, productId), movement: movement ?? null };
  });
}

/** Sets a product's own threshold, or null for the shop's default; the low-stock list follows (a trigger). */
export async function setThreshold(
  db: Db,
  productId: string,
  input: LowStockThresholdInput,
): Promise<ProductStock> {
  const [row] = await db
    .update(products)
    .set({ lowStockThreshold: input.threshold, updatedAt: new Date() })
    .where(eq(products.id, productId))
    .returning({ id: products.id });
  if (!row) throw notFound(m.notFound);
  return getStock(db, productId);
}

/**
 * A page of a product's movements, newest first, after the cursor (the id of the last movement of
 * the page before): a keyset on stock_movement_product_idx (product_id, id desc), so page 40,000
 * reads as few index entries as page 1. One more row than asked says whether a next page exists.
 */
export async function stockHistory(
  db: Db,
  productId: string,
  query: StockHistoryQuery,
): Promise<StockHistory> {
  const limit = query.limit ?? STOCK_HISTORY_PAGE_SIZE;
  const [rows, product] = await Promise.all([
    db
      .select(movementColumns)
      .from(stockMovements)
      .leftJoin(users, eq(users.id, stockMovements.adminId))
      .where(
        and(
          eq(stockMovements.productId, productId),
          query.cursor === undefined ? undefined : lt(stockMovements.id, Number(query.cursor)),
        ),
      )
      .orderBy(desc(stockMovements.id))
      .limit(limit + 1),
    db.select({ id: products.id }).from(products).where(eq(products.id, productId)),
  ]);
  if (product.length === 0) throw notFound(m.notFound);
  const items: StockMovement[] = rows.slice(0, limit);
  return { items, nextCursor: rows.length > limit ? (items.at(-1)?.id ?? null) : null };
}

/**
 * Writes the shop's low-stock default (LOW_STOCK_THRESHOLD) for the triggers, at start-up. When it
 * changed, the low-stock list is made again for the products that follow it, in the same
 * transaction (the one time this reads the whole catalog), and no mail goes: the stock did not
 * fall. Every instance should be given the same value; the last to start wins.
 */
export async function applyLowStockDefault(db: Db, threshold: number): Promise<boolean> {
  return db.transaction(async (tx) => {
    const changed = await tx
      .update(stockSetting)
      .set({ lowStockDefault: threshold })
      .where(and(eq(stockSetting.id, true), sql`${stockSetting.lowStockDefault} <> ${threshold}`))
      .returning({ id: stockSetting.id });
    if (changed.length === 0) return false;
    await tx.execute(sql`
      delete from ${lowStockProducts} l using ${products} p
      where p.id = l.product_id and p.low_stock_threshold is null and p.quantity >= ${threshold}`);
    await tx.execute(sql`
      insert into ${lowStockProducts} (product_id, name, quantity, threshold)
      select id, name, quantity, ${threshold}::int from ${products}
      where low_stock_threshold is null and quantity < ${threshold} and archived_at is null
      on conflict (product_id) do update set quantity = excluded.quantity, threshold = excluded.threshold`);
    return true;
  });
}
