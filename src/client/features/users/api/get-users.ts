import { queryOptions, useQuery } from "@tanstack/react-query";
import type { User } from "../../../../shared/users.js";
import { api } from "../../../lib/api.js";

/** Every users query starts with this key, so one invalidation refreshes both admin tables. */
export const usersQueryKey = ["users"] as const;

export function getUsers(signal?: AbortSignal): Promise<User[]> {
  return api<User[]>("/api/users", { signal });
}

export function usersQueryOptions() {
  return queryOptions({
    queryKey: [...usersQueryKey, "list"],
    queryFn: ({ signal }) => getUsers(signal),
  });
}

/** Every user of the shop (admin only: a customer gets a 403). */
export function useUsers() {
  return useQuery(usersQueryOptions());
}
