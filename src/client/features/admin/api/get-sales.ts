import { queryOptions, useQuery } from "@tanstack/react-query";
import type { AdminSales } from "../../../../shared/admin.js";
import { api } from "../../../lib/api.js";
import { adminKeys } from "../../../lib/query-keys.js";

function getSales(signal?: AbortSignal): Promise<AdminSales> {
  return api<AdminSales>("/api/admin/sales", { signal });
}

function salesQueryOptions() {
  return queryOptions({ queryKey: adminKeys.sales(), queryFn: ({ signal }) => getSales(signal) });
}

/** The overview's charts: the last 30 UTC days, orders by status, top products (admin only). */
export function useSales() {
  return useQuery(salesQueryOptions());
}
