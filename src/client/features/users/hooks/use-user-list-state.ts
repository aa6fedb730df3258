import { useCallback, useMemo } from "react";
import { useSearchParams } from "react-router";
import { ROLES, type Role } from "../../../../shared/accounts.js";
import { MAX_CURSOR_LENGTH } from "../../../../shared/paging.js";
import { USER_SEARCH_MAX_LENGTH } from "../../../../shared/users.js";

/**
 * What an admin users list shows, kept in the URL so that a list can be shared and back and forward
 * step through earlier lists: the search, the role, where the page starts (after `cursor` or before
 * `before`, as the server gave them) and its number, which only numbers the rows.
 */
export type UserListState = {
  search: string;
  role: Role | undefined;
  cursor: string | undefined;
  before: string | undefined;
  page: number;
};

const isRole = (value: string | null): value is Role => (ROLES as readonly (string | null)[]).includes(value);
const cursorParam = (value: string | null) =>
  value && value.length <= MAX_CURSOR_LENGTH ? value : undefined;

function readParams(params: URLSearchParams): UserListState {
  const role = params.get("role");
  const page = Number(params.get("page"));
  const cursor = cursorParam(params.get("cursor"));
  return {
    search: (params.get("search") ?? "").trim().slice(0, USER_SEARCH_MAX_LENGTH),
    role: isRole(role) ? role : undefined,
    cursor,
    before: cursor ? undefined : cursorParam(params.get("before")),
    page: Number.isInteger(page) && page >= 1 ? page : 1,
  };
}

/** The URL query of a list, leaving defaults out so links stay short. */
export function userListSearch(list: Partial<UserListState>): string {
  const params = new URLSearchParams();
  if (list.search) params.set("search", list.search);
  if (list.role) params.set("role", list.role);
  if (list.cursor) params.set("cursor", list.cursor);
  else if (list.before) params.set("before", list.before);
  if (list.page && list.page > 1) params.set("page", String(list.page));
  const query = params.toString();
  return query ? `?${query}` : "?";
}

export function useUserListState() {
  const [searchParams, setSearchParams] = useSearchParams();
  const list = useMemo(() => readParams(searchParams), [searchParams]);

  /** A new search starts at the first page and keeps the role. */
  const setSearch = useCallback(
    (search: string) =>
      setSearchParams(
        (current) => new URLSearchParams(userListSearch({ search, role: readParams(current).role })),
        { preventScrollReset: true },
      ),
    [setSearchParams],
  );

  return { list, setSearch };
}
