import type { StockHistory } from "../../../../shared/stock.js";
import { adminKeys } from "../../../lib/query-keys.js";
import { useCursorPages } from "../../../lib/use-cursor-pages.js";

/** A product's movements, newest first, a keyset page at a time ("Older movements" asks the next). */
export function useStockHistory(id: string) {
  return useCursorPages<StockHistory>(
    adminKeys.stockHistory(id),
    `/api/products/${encodeURIComponent(id)}/stock/movements`,
  );
}
