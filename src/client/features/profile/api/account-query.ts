import { type QueryKey, useQuery } from "@tanstack/react-query";
import { api } from "../../../lib/api.js";

/**
 * A GET of the signed-in user's own account data, cached under `queryKey` (one of profileKeys, which
 * carry the user's id); the request is cancelled when nothing waits for it any more.
 */
export function useAccountQuery<T>(queryKey: QueryKey, path: string) {
  return useQuery({ queryKey, queryFn: ({ signal }) => api<T>(path, { signal }) });
}
