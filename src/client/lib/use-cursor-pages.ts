import { type QueryKey, useInfiniteQuery } from "@tanstack/react-query";
import { api } from "./api.js";

/**
 * A keyset-paged list of the API (`path` with `query`), a page at a time: each next page asks for
 * the rows after the last page's `nextCursor`, and MoreButton asks for it. The stock history, the
 * back-in-stock list, the activity log and review moderation all page this way.
 */
export function useCursorPages<T extends { nextCursor: string | null }>(
  queryKey: QueryKey,
  path: string,
  query: URLSearchParams = new URLSearchParams(),
) {
  return useInfiniteQuery({
    queryKey,
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam, signal }) => {
      const params = new URLSearchParams(query);
      if (pageParam) params.set("cursor", pageParam);
      const search = params.toString();
      return api<T>(search ? `${path}?${search}` : path, { signal });
    },
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}
