import { useInfiniteQuery } from "@tanstack/react-query";
import type { ActivityPage } from "../../../../shared/activity.js";
import { api } from "../../../lib/api.js";

/** The activity log's entries that match `query` (the API's), newest first, a keyset page at a time. */
export function useActivity(query: URLSearchParams) {
  return useInfiniteQuery({
    queryKey: ["activity", query.toString()],
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam, signal }) => {
      const params = new URLSearchParams(query);
      if (pageParam) params.set("cursor", pageParam);
      return api<ActivityPage>(`/api/admin/activity?${params}`, { signal });
    },
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}
