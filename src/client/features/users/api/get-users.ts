import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import { withQuery } from "../../../../shared/constants.js";
import { LIST_PAGE_SIZE } from "../../../../shared/paging.js";
import type { UserListParams, UserPage } from "../../../../shared/users.js";
import { api } from "../../../lib/api.js";
import { userKeys } from "./keys.js";

function getUsers(query: Partial<UserListParams>, signal?: AbortSignal): Promise<UserPage> {
  const { search, role, cursor, before, limit } = query;
  return api<UserPage>(withQuery("/api/users", { search, role, cursor, before, limit }), { signal });
}

function usersQueryOptions(query: Partial<UserListParams>) {
  return queryOptions({
    queryKey: userKeys.list(query),
    queryFn: ({ signal }) => getUsers(query, signal),
    // The page on screen stays (marked busy) while the next one loads, instead of a spinner.
    placeholderData: keepPreviousData,
  });
}

/** One page of the shop's users (admin only: a customer gets a 403). */
export function useUsers(query: Omit<Partial<UserListParams>, "limit">) {
  return useQuery(usersQueryOptions({ ...query, limit: LIST_PAGE_SIZE }));
}
