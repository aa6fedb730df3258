import type { ComponentType } from "react";
import { LoadError } from "./load-error.js";
import { Spinner } from "./spinner.js";

/** The part of a TanStack query (useQuery or useInfiniteQuery) that is not loaded yet. */
type Unloaded = { isPending: boolean; error: unknown; refetch: () => Promise<unknown> };

type Props = {
  query: Unloaded;
  /** What a failure shows: a retry by default, an admin page's AdminLoadError, a list's own. */
  failure?: ComponentType<{ error: unknown; onRetry: () => void }>;
};

/**
 * What a section shows until its query has data: a spinner while it loads, then the failure and a
 * retry. Shown where the query is not a success (`if (!query.isSuccess)`), which is also what tells
 * TypeScript that the data is there after it.
 */
export function LoadingState({ query, failure: Failure = LoadError }: Props) {
  if (query.isPending) return <Spinner />;
  return <Failure error={query.error} onRetry={() => void query.refetch()} />;
}
