import type { QueryClient } from "@tanstack/react-query";
import { sessionQueryKey } from "../../../lib/auth.js";

/**
 * After a sign-in or sign-up: reloads the signed-in user before the next page renders (so guarded
 * pages do not bounce back to login), and drops data cached for whoever used this browser before.
 */
export async function startSession(queryClient: QueryClient): Promise<void> {
  queryClient.removeQueries({
    predicate: (query) => query.queryKey[0] !== sessionQueryKey[0] && !query.isActive(),
  });
  await queryClient.invalidateQueries({ queryKey: sessionQueryKey, refetchType: "all" });
}
