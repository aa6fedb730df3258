import { type ReactNode, useEffect, useRef } from "react";
import { Link } from "react-router";
import { ROLES } from "../../../../shared/accounts.js";
import { commonMessages } from "../../../../shared/messages/common.js";
import { userMessages } from "../../../../shared/messages/users.js";
import { LIST_PAGE_SIZE } from "../../../../shared/paging.js";
import {
  USER_SEARCH_MAX_LENGTH,
  USER_SEARCH_SUBSTRING_MIN,
  type UserPage,
} from "../../../../shared/users.js";
import { AdminOnly } from "../../../components/admin-only.js";
import { CursorPager } from "../../../components/cursor-pager.js";
import { FilterChips } from "../../../components/filter-chips.js";
import { LoadError } from "../../../components/load-error.js";
import { LoadingState } from "../../../components/loading-state.js";
import { SearchBox } from "../../../components/search-box.js";
import { ApiError } from "../../../lib/api.js";
import { problemMessage } from "../../../lib/form-errors.js";
import { useUsers } from "../api/get-users.js";
import { type UserListState, userListSearch, useUserListState } from "../hooks/use-user-list-state.js";
import type { UserRows } from "./user-list.js";

const text = userMessages;

type Props = {
  /** The page's list of users. */
  children: (rows: UserRows) => ReactNode;
};

/**
 * The frame of the admin users lists (All users, Make Admin): a search and role chips, the count,
 * one page of users from the server and Previous/Next, all of it kept in the URL.
 */
export function UserDirectory({ children }: Props) {
  const { list, setSearch } = useUserListState();
  const users = useUsers({ search: list.search, role: list.role, cursor: list.cursor, before: list.before });
  const filtered = list.search !== "" || list.role !== undefined;

  // A customer on an admin page: the notice alone, without a search they could not use.
  if (users.error instanceof ApiError && users.error.status === 403) return <AdminOnly />;
  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-col gap-4 md:flex-row md:items-start md:justify-between">
        <SearchBox
          label={text.searchLabel}
          hint={text.searchHint(USER_SEARCH_SUBSTRING_MIN)}
          placeholder={text.searchPlaceholder}
          maxLength={USER_SEARCH_MAX_LENGTH}
          value={list.search}
          onSearch={setSearch}
        />
        <FilterChips
          label={text.roleFilter}
          chips={[undefined, ...ROLES].map((role) => ({
            key: role ?? "all",
            label: role ? text.roleChips[role] : text.allRoles,
            href: userListSearch({ search: list.search, role }),
            active: role === list.role,
          }))}
        />
      </div>
      {users.isSuccess ? (
        <Page page={users.data} list={list} filtered={filtered} busy={users.isPlaceholderData}>
          {children}
        </Page>
      ) : (
        <LoadingState query={users} failure={ListError} />
      )}
    </div>
  );
}

type PageProps = Props & { page: UserPage; list: UserListState; filtered: boolean; busy: boolean };

function Page({ page, list, filtered, busy, children }: PageProps) {
  // A page that has none before it is the first, whatever the URL numbered it.
  const number = page.prevCursor === null ? 1 : list.page;
  const first = (number - 1) * LIST_PAGE_SIZE + 1;
  const count = text.count(page.total.count, page.total.exact);
  const step = (change: Partial<UserListState>) =>
    userListSearch({ search: list.search, role: list.role, ...change });
  const top = useScrollBackOnNewPage(list.cursor ?? list.before ?? "", busy);

  const empty = page.items.length === 0;

  return (
    <div>
      <p ref={top} role="status" className="mb-3 scroll-mt-24 text-sm text-base-content/80">
        {busy
          ? commonMessages.loading
          : empty
            ? count
            : text.showing(count, first, first + page.items.length - 1)}
      </p>
      <div aria-busy={busy} className={busy ? "opacity-60" : undefined}>
        {children({ users: page.items, first, empty: filtered ? text.noMatch : text.none })}
      </div>
      {empty && (filtered || list.cursor || list.before) ? (
        <Link to="?" className="btn btn-primary mt-6">
          {text.clearFilters}
        </Link>
      ) : (
        <CursorPager
          texts={text}
          steps={{
            previous: page.prevCursor ? step({ before: page.prevCursor, page: number - 1 }) : undefined,
            next: page.nextCursor ? step({ cursor: page.nextCursor, page: number + 1 }) : undefined,
          }}
        />
      )}
    </div>
  );
}

/**
 * Once another page has arrived, brings its start into view if Previous or Next (at the end of the
 * list) left it above the screen. Focus stays on the link that was pressed.
 */
function useScrollBackOnNewPage(position: string, busy: boolean) {
  const top = useRef<HTMLParagraphElement>(null);
  const shown = useRef(position);
  useEffect(() => {
    if (busy || shown.current === position) return;
    shown.current = position;
    const start = top.current;
    if (start && start.getBoundingClientRect().top < 0) start.scrollIntoView({ block: "start" });
  }, [position, busy]);
  return top;
}

/** A refused search or page link says why and leads back to the whole list; other failures retry. */
function ListError({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  if (!(error instanceof ApiError && error.status === 400))
    return <LoadError error={error} onRetry={onRetry} />;
  return (
    <div role="alert" className="alert alert-warning alert-soft flex flex-wrap justify-between gap-3">
      <span>{problemMessage(error)}</span>
      <Link to="?" className="btn btn-sm">
        {text.clearFilters}
      </Link>
    </div>
  );
}
