import { useCallback, useMemo, useRef } from "react";
import { useSearchParams } from "react-router";
import { ORDER_SEARCH_MAX_LENGTH, ORDER_STATUSES, type OrderStatus } from "../../../../shared/orders.js";
import { isDay, midnight } from "../../../lib/days.js";
import { withoutPosition } from "../../../lib/use-page-position.js";

/**
 * Manage Orders' filter as the admin chose it: days are calendar days in the admin's own time zone,
 * both ends included. It lives in the page's URL (search, status, from, to), so a filtered list can
 * be shared and the back button steps through earlier filters.
 */
export type OrdersFilter = {
  search: string;
  status: OrderStatus[];
  from: string;
  to: string;
};

function isStatus(value: string): value is OrderStatus {
  return (ORDER_STATUSES as readonly string[]).includes(value);
}

/** Reads the filter from the URL, ignoring what the shop does not know. */
function readFilter(params: URLSearchParams): OrdersFilter {
  const from = params.get("from");
  const to = params.get("to");
  return {
    search: (params.get("search") ?? "").trim().slice(0, ORDER_SEARCH_MAX_LENGTH),
    status: ORDER_STATUSES.filter((s) =>
      (params.get("status") ?? "").split(",").filter(isStatus).includes(s),
    ),
    from: isDay(from) ? from : "",
    to: isDay(to) ? to : "",
  };
}

function filterParams(filter: OrdersFilter): URLSearchParams {
  const params = new URLSearchParams();
  if (filter.search) params.set("search", filter.search);
  if (filter.status.length) params.set("status", filter.status.join(","));
  if (filter.from) params.set("from", filter.from);
  if (filter.to) params.set("to", filter.to);
  return params;
}

/**
 * The API's query for a filter (GET /api/orders, the CSV export): the days become instants, from
 * the first day's midnight up to the midnight after the last.
 */
export function ordersApiQuery(filter: OrdersFilter): URLSearchParams {
  const params = filterParams(filter);
  if (filter.from) params.set("from", midnight(filter.from).toISOString());
  if (filter.to) params.set("to", midnight(filter.to, 1).toISOString());
  return params;
}

export const isFiltered = (filter: OrdersFilter) =>
  Boolean(filter.search || filter.status.length || filter.from || filter.to);

export const NO_FILTER: OrdersFilter = { search: "", status: [], from: "", to: "" };

export function useOrdersFilter() {
  const [params, setParams] = useSearchParams();
  /**
   * The filter asked for last, so two changes made before the router shows the first (a chip and
   * the debounced search) both land. A new URL (a link, the back button) resets it.
   */
  const latest = useRef<OrdersFilter>(NO_FILTER);
  const filter = useMemo(() => {
    const read = readFilter(withoutPosition(params));
    latest.current = read;
    return read;
  }, [params]);

  /** Applies a change and starts again at the first page (the new URL has no position). */
  const update = useCallback(
    (change: Partial<OrdersFilter>) => {
      const next = { ...latest.current, ...change };
      latest.current = next;
      setParams(filterParams(next), { preventScrollReset: true });
    },
    [setParams],
  );

  return { filter, update };
}
