import { queryOptions, useQuery } from "@tanstack/react-query";
import type { ProductStock } from "../../../../shared/stock.js";
import { fetcherOf } from "../../../lib/api.js";
import { adminKeys } from "../../../lib/query-keys.js";

/** A product's stock and low-stock threshold (admin only). */
export function useStock(id: string) {
  return useQuery(
    queryOptions({
      queryKey: adminKeys.stock(id),
      queryFn: fetcherOf<ProductStock>(`/api/products/${encodeURIComponent(id)}/stock`),
    }),
  );
}
