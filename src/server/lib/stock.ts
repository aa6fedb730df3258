import { sql } from "drizzle-orm";
import type { Tx } from "../db/client.js";

/** Why a product's stock changed: the stock ledger's reasons (migration 0018, src/shared/stock.ts). */
type StockReason = "booking" | "removal" | "expiry" | "refund" | "adjustment" | "import";

export interface StockCause {
  reason: StockReason;
  orderId?: string | null;
  adminId?: string | null;
  note?: string | null;
}

/**
 * Names the cause of the stock changes that follow in `tx`: the ledger's trigger on product writes
 * each change of quantity as a movement with it, and refuses a change made with no reason (so no
 * path skips the ledger). The settings are the transaction's own (set_config's `true`): they end
 * with it, and every value is set, so a cause never inherits an order or a note from an earlier
 * one in the same transaction.
 */
export async function stockCause(tx: Tx, cause: StockCause): Promise<void> {
  await tx.execute(sql`select set_config('gearhouse.stock_reason', ${cause.reason}, true),
    set_config('gearhouse.stock_order', ${cause.orderId ?? ""}, true),
    set_config('gearhouse.stock_admin', ${cause.adminId ?? ""}, true),
    set_config('gearhouse.stock_note', ${cause.note ?? ""}, true)`);
}
