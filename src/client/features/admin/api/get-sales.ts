import { queryOptions, useQuery } from "@tanstack/react-query";
import type { AdminSales } from "../../../../shared/admin.js";
import { fetcherOf } from "../../../lib/api.js";
import { adminKeys } from "../../../lib/query-keys.js";

/** The overview's charts: the last 30 UTC days, orders by status, top products (admin only). */
export function useSales() {
  return useQuery(
    queryOptions({ queryKey: adminKeys.sales(), queryFn: fetcherOf<AdminSales>("/api/admin/sales") }),
  );
}
