import type { UserListParams } from "../../../../shared/users.js";

/** Every users query starts with `all`, so one invalidation refreshes both admin tables. */
export const userKeys = {
  all: ["users"] as const,
  list: (query: Partial<UserListParams>) => [...userKeys.all, "list", query] as const,
};
