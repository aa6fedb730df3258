import { useLocation, useSearchParams } from "react-router";

/**
 * Where a cursor-paged list (src/shared/paging.ts) stands, kept in the URL so a page can be shared
 * and the back button steps through the pages seen: `cursor` (the server's token for the page) and
 * `page` (its number, for the reader). The cursors of the pages before it travel in the history
 * entry's state, which is what Previous follows; a shared link has none, so it offers the first
 * page instead.
 */
export type PagingState = {
  /** The cursors of the earlier pages, the first page's as "". */
  trail: string[];
  /** Set by the pager's links: the list should take focus once the page shows. */
  paged: true;
};

export type PageLink = { search: string; state: PagingState };

const CURSOR = "cursor";
const PAGE = "page";

function trailOf(state: unknown): string[] {
  const trail = (state as Partial<PagingState> | null)?.trail;
  return Array.isArray(trail) && trail.every((c) => typeof c === "string") ? trail : [];
}

/** The URL's query without the paging, for the first page of a (new) filter. */
export function withoutPaging(params: URLSearchParams): URLSearchParams {
  const rest = new URLSearchParams(params);
  rest.delete(CURSOR);
  rest.delete(PAGE);
  return rest;
}

export function useCursorPaging() {
  const [params] = useSearchParams();
  const location = useLocation();
  const cursor = params.get(CURSOR) || undefined;
  const number = Number(params.get(PAGE));
  const page = cursor ? (Number.isInteger(number) && number >= 2 ? number : 2) : 1;
  const trail = trailOf(location.state);

  const link = (to: string | undefined, pageNumber: number, nextTrail: string[]): PageLink => {
    const search = withoutPaging(params);
    if (to) {
      search.set(CURSOR, to);
      search.set(PAGE, String(pageNumber));
    }
    return { search: `?${search}`, state: { trail: nextTrail, paged: true } };
  };

  const previousCursor = trail.at(-1);
  return {
    cursor,
    page,
    /** Whether this history entry was made by a pager link (then the list takes focus). */
    paged: (location.state as Partial<PagingState> | null)?.paged === true,
    /** The page after this one, given the cursor the server sent with this page. */
    next: (nextCursor: string) => link(nextCursor, page + 1, [...trail, cursor ?? ""]),
    /** The page before, when this entry knows it (it came here by Next). */
    previous:
      cursor && previousCursor !== undefined
        ? link(previousCursor || undefined, page - 1, trail.slice(0, -1))
        : undefined,
    /** The first page, for a page opened from a shared link. */
    first: cursor ? link(undefined, 1, []) : undefined,
  };
}
