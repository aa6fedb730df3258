import type {
  LowStockThresholdInput,
  ProductStock,
  StockAdjusted,
  StockAdjustment,
} from "../../../../shared/stock.js";
import { api } from "../../../lib/api.js";
import { adminKeys, catalogKeys } from "../../../lib/query-keys.js";
import { useApiMutation } from "../../../lib/use-api-mutation.js";

function adjustStock({
  id,
  adjustment,
}: {
  id: string;
  adjustment: StockAdjustment;
}): Promise<StockAdjusted> {
  return api<StockAdjusted>(`/api/products/${encodeURIComponent(id)}/stock/adjustments`, {
    method: "POST",
    json: adjustment,
  });
}

/** An adjustment: the stock, its history, the catalog and the overview's low-stock list change. */
export function useAdjustStock(id: string) {
  return useApiMutation(adjustStock, {
    invalidates: [adminKeys.stock(id), catalogKeys.all, adminKeys.overview()],
  });
}

function setThreshold({ id, input }: { id: string; input: LowStockThresholdInput }): Promise<ProductStock> {
  return api<ProductStock>(`/api/products/${encodeURIComponent(id)}/stock/threshold`, {
    method: "PUT",
    json: input,
  });
}

export function useSetThreshold(id: string) {
  return useApiMutation(setThreshold, { invalidates: [adminKeys.stock(id), adminKeys.overview()] });
}
