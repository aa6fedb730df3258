import { useInfiniteQuery } from "@tanstack/react-query";
import type { StockHistory } from "../../../../shared/stock.js";
import { api } from "../../../lib/api.js";
import { adminKeys } from "../../../lib/query-keys.js";

/** A product's movements, newest first, a keyset page at a time ("Older movements" asks the next). */
export function useStockHistory(id: string) {
  return useInfiniteQuery({
    queryKey: adminKeys.stockHistory(id),
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam, signal }) =>
      api<StockHistory>(
        `/api/products/${encodeURIComponent(id)}/stock/movements${pageParam ? `?cursor=${encodeURIComponent(pageParam)}` : ""}`,
        { signal },
      ),
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}
