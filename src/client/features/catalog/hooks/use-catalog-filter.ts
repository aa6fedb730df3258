import { useCallback, useMemo, useRef } from "react";
import { useSearchParams } from "react-router";
import {
  CATEGORIES,
  type Category,
  defaultProductSort,
  effectiveProductSort,
  PRODUCT_SORTS,
  type ProductSort,
} from "../../../../shared/constants.js";

export type CatalogFilter = {
  search: string;
  category: Category | undefined;
  sort: ProductSort;
  page: number;
};

function isCategory(value: string | null): value is Category {
  return (CATEGORIES as readonly (string | null)[]).includes(value);
}

function isSort(value: string | null): value is ProductSort {
  return (PRODUCT_SORTS as readonly (string | null)[]).includes(value);
}

/** Reads the list's filter from the URL, ignoring values the shop does not know. */
function readFilter(params: URLSearchParams): CatalogFilter {
  const category = params.get("category");
  const sort = params.get("sort");
  const page = Number(params.get("page"));
  const search = (params.get("search") ?? "").trim().slice(0, 100);
  return {
    search,
    category: isCategory(category) ? category : undefined,
    sort: effectiveProductSort(isSort(sort) ? sort : undefined, search),
    page: Number.isInteger(page) && page >= 1 ? page : 1,
  };
}

/** The URL query for a filter, leaving defaults out so links stay short. */
export function filterQuery(filter: CatalogFilter): string {
  const params = new URLSearchParams();
  const sort = effectiveProductSort(filter.sort, filter.search);
  if (filter.search) params.set("search", filter.search);
  if (filter.category) params.set("category", filter.category);
  if (sort !== defaultProductSort(filter.search)) params.set("sort", sort);
  if (filter.page > 1) params.set("page", String(filter.page));
  const query = params.toString();
  return query ? `?${query}` : "";
}

/**
 * The product list's search, category, sort and page, kept in the URL so a list can be
 * shared and the back button steps through earlier lists.
 */
export function useCatalogFilter() {
  const [params, setParams] = useSearchParams();
  /**
   * The filter asked for last: two changes made before the router has shown the first (a sort and
   * a debounced search, on a busy machine) both land, the second on top of the first. A new URL
   * (a link, the back button, or a change of ours arriving) resets it.
   */
  const latest = useRef<CatalogFilter | undefined>(undefined);
  const filter = useMemo(() => {
    const read = readFilter(params);
    latest.current = read;
    return read;
  }, [params]);

  /** Applies a change; every change but a page step starts again at page 1. */
  const update = useCallback(
    (change: Partial<CatalogFilter>, options: { replace?: boolean } = {}) => {
      // Set by the memo above in the render that made this callback reachable.
      const previous = latest.current as CatalogFilter;
      const next = { ...previous, page: 1, ...change };
      // An order nobody chose follows the search: by relevance once searching, by name after.
      if (change.sort === undefined && previous.sort === defaultProductSort(previous.search))
        next.sort = defaultProductSort(next.search);
      next.sort = effectiveProductSort(next.sort, next.search);
      latest.current = next;
      setParams(new URLSearchParams(filterQuery(next)), {
        replace: options.replace,
        preventScrollReset: true,
      });
    },
    // Depends on no filter, so a debounced caller never holds an old one.
    [setParams],
  );

  return { filter, update };
}
