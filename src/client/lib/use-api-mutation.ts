import { type QueryClient, type QueryKey, useMutation, useQueryClient } from "@tanstack/react-query";

type ApiMutationOptions<TData, TVariables> = {
  /** The query keys the change makes stale: fixed, or chosen by the mutation's variables. */
  invalidates?: readonly QueryKey[] | ((variables: TVariables) => readonly QueryKey[]);
  /** More to do on success (write an answer into the cache…); runs before the invalidations start. */
  onSuccess?: (data: TData, variables: TVariables, queryClient: QueryClient) => unknown;
};

/**
 * A mutation of the API that, once it succeeds, invalidates the queries it changed. It settles only
 * when `onSuccess` and every invalidation (with its refetch) have, so a caller that moves on after
 * `mutateAsync` or in its own `onSuccess` finds the fresh data.
 */
export function useApiMutation<TData, TVariables = void>(
  mutationFn: (variables: TVariables) => Promise<TData>,
  { invalidates = [], onSuccess }: ApiMutationOptions<TData, TVariables> = {},
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: (data, variables) => {
      const first = onSuccess?.(data, variables, queryClient);
      const stale = typeof invalidates === "function" ? invalidates(variables) : invalidates;
      return Promise.all([first, ...stale.map((queryKey) => queryClient.invalidateQueries({ queryKey }))]);
    },
  });
}
