import { queryOptions, useQuery } from "@tanstack/react-query";
import type { AdminOverview } from "../../../../shared/admin.js";
import { api } from "../../../lib/api.js";
import { adminKeys } from "../../../lib/query-keys.js";

function getOverview(signal?: AbortSignal): Promise<AdminOverview> {
  return api<AdminOverview>("/api/admin/overview", { signal });
}

function overviewQueryOptions() {
  return queryOptions({ queryKey: adminKeys.overview(), queryFn: ({ signal }) => getOverview(signal) });
}

/** Counts of users and orders by state, and the products running low (admin only). */
export function useOverview() {
  return useQuery(overviewQueryOptions());
}
