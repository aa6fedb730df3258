import { queryOptions, useQuery } from "@tanstack/react-query";
import type { AdminOverview } from "../../../../shared/admin.js";
import { fetcherOf } from "../../../lib/api.js";
import { adminKeys } from "../../../lib/query-keys.js";

/** Counts of users and orders by state, and the products running low (admin only). */
export function useOverview() {
  return useQuery(
    queryOptions({
      queryKey: adminKeys.overview(),
      queryFn: fetcherOf<AdminOverview>("/api/admin/overview"),
    }),
  );
}
