import { type RefObject, useEffect, useMemo, useRef } from "react";
import { useSearchParams } from "react-router";
import { MAX_CURSOR_LENGTH } from "../../shared/paging.js";

/**
 * Where a cursor-paged list (src/shared/paging.ts) starts, kept in the URL with the list's other
 * parameters so a page can be shared and back and forward step through the pages seen: after
 * `cursor` or before `before`, as the server gave them, and `page`, which only numbers the rows.
 */
export type PagePosition = { cursor: string | undefined; before: string | undefined; page: number };

const POSITION = ["cursor", "before", "page"] as const;
const cursorParam = (value: string | null) =>
  value && value.length <= MAX_CURSOR_LENGTH ? value : undefined;

/** Where a page starts, as the API takes it. */
export type PageAt = Pick<PagePosition, "cursor" | "before">;

/** Adds a page's position to an API query. */
export function withPageAt(query: URLSearchParams, at: PageAt): URLSearchParams {
  const params = new URLSearchParams(query);
  if (at.cursor) params.set("cursor", at.cursor);
  else if (at.before) params.set("before", at.before);
  return params;
}

function readPosition(params: URLSearchParams): PagePosition {
  const cursor = cursorParam(params.get("cursor"));
  const page = Number(params.get("page"));
  return {
    cursor,
    before: cursor ? undefined : cursorParam(params.get("before")),
    page: Number.isInteger(page) && page >= 1 ? page : 1,
  };
}

/** The URL's query without the position: the first page of the same list. */
export function withoutPosition(params: URLSearchParams): URLSearchParams {
  const rest = new URLSearchParams(params);
  for (const key of POSITION) rest.delete(key);
  return rest;
}

/** A link to `position` in the list the URL's other parameters describe. */
function positionHref(params: URLSearchParams, position: Partial<PagePosition>): string {
  const next = withoutPosition(params);
  if (position.cursor) next.set("cursor", position.cursor);
  else if (position.before) next.set("before", position.before);
  if (position.page && position.page > 1) next.set("page", String(position.page));
  return `?${next}`;
}

/** The page's position, and the links of the pages before and after it (for CursorPager). */
export function usePagePosition() {
  const [params] = useSearchParams();
  const position = useMemo(() => readPosition(params), [params]);
  /**
   * Previous and Next for a page the server sent: its cursors, and its number (a page with none
   * before it is the first, whatever the URL numbered it).
   */
  const steps = (page: { prevCursor: string | null; nextCursor: string | null }) => {
    const number = page.prevCursor === null ? 1 : position.page;
    return {
      number,
      previous: page.prevCursor
        ? positionHref(params, { before: page.prevCursor, page: number - 1 })
        : undefined,
      next: page.nextCursor ? positionHref(params, { cursor: page.nextCursor, page: number + 1 }) : undefined,
    };
  };
  return { ...position, steps };
}

/**
 * Once another page of the list has arrived (Previous, Next, back or forward), focus goes to the
 * list, so a keyboard or screen-reader user starts reading it from the top. A new filter starts at
 * the first page with no position: focus then stays where the admin is typing or choosing.
 */
export function useFocusOnNewPage(
  target: RefObject<HTMLElement | null>,
  position: PagePosition,
  shown: boolean,
) {
  const key = position.cursor ?? position.before ?? "";
  const focused = useRef(key);
  useEffect(() => {
    if (!shown || focused.current === key) return;
    focused.current = key;
    if (key) target.current?.focus();
  }, [key, shown, target]);
}
