import { useMemo, useState } from "react";
import { adminMessages } from "../../../../shared/messages/admin.js";
import { dashboardMessages } from "../../../../shared/messages/dashboard.js";
import { orderMessages } from "../../../../shared/messages/orders.js";
import type { OrderPage } from "../../../../shared/orders.js";
import { LIST_PAGE_SIZE } from "../../../../shared/paging.js";
import { AdminLoadError } from "../../../components/admin-only.js";
import { CursorPager } from "../../../components/cursor-pager.js";
import { DashboardHeading } from "../../../components/dashboard-heading.js";
import { Icon } from "../../../components/icon.js";
import { PendingStatus } from "../../../components/pending-status.js";
import { Spinner } from "../../../components/spinner.js";
import { ApiError } from "../../../lib/api.js";
import { problemMessage } from "../../../lib/form-errors.js";
import { usePagePosition } from "../../../lib/use-page-position.js";
import { ordersExportHref, useAllOrders } from "../api/get-all-orders.js";
import { OrdersFilters } from "../components/orders-filters.js";
import { OrdersTable } from "../components/orders-table.js";
import { isFiltered, NO_FILTER, ordersApiQuery, useOrdersFilter } from "../hooks/use-orders-filter.js";

const text = adminMessages.orders;

/** Why the list is empty: no orders at all, or none for these filters (with a way out). */
function NoOrders({ filtered, onClear }: { filtered: boolean; onClear: () => void }) {
  return (
    <div className="flex flex-col items-start gap-4 rounded-box border border-base-content/10 bg-base-200 p-8">
      <p>{filtered ? text.noneMatch : text.none}</p>
      {filtered ? (
        <button type="button" className="btn btn-primary btn-sm" onClick={onClear}>
          {text.clear}
        </button>
      ) : null}
    </div>
  );
}

/** A filter or page link the server refused (a stale cursor, a hand-edited URL), and a way out. */
function RefusedFilter({ error, onClear }: { error: ApiError; onClear: () => void }) {
  return (
    <div role="alert" className="alert alert-warning alert-soft flex flex-wrap justify-between gap-3">
      <span>{problemMessage(error)}</span>
      <button type="button" className="btn btn-sm" onClick={onClear}>
        {text.clear}
      </button>
    </div>
  );
}

/**
 * /dashboard/manageOrders (admin): the shop's orders a page at a time, newest first, with search,
 * status chips and a date range, all kept in the URL; Download exports every page of the filter.
 */
export function ManageOrdersPage() {
  const { filter, update } = useOrdersFilter();
  const position = usePagePosition();
  const query = useMemo(() => ordersApiQuery(filter), [filter]);
  // A search the server cannot look up, or a range that ends before it starts: no list is asked
  // for, and none is shown, so no old results sit under the message as if they matched.
  const [searchRefused, setSearchRefused] = useState(false);
  const reversed = Boolean(filter.from && filter.to && filter.from > filter.to);
  const refused = reversed || searchRefused;
  const orders = useAllOrders(query, position, !refused);
  const clear = () => update(NO_FILTER);
  const page = orders.data;

  const heading = (
    <DashboardHeading title={dashboardMessages.manageOrders} lead={dashboardMessages.manageOrdersLead} />
  );
  // A customer: the route is open to them, the orders are not, and neither are their filters.
  if (orders.error instanceof ApiError && orders.error.status === 403)
    return (
      <>
        {heading}
        <AdminLoadError error={orders.error} onRetry={() => void orders.refetch()} />
      </>
    );

  return (
    <>
      {heading}
      <OrdersFilters filter={filter} onChange={update} refused={searchRefused} onRefused={setSearchRefused} />
      <div className="my-4 flex flex-wrap items-center justify-between gap-3">
        <p role="status" className="font-medium">
          {page && !refused ? orderMessages.list.count(page.total.count, page.total.exact) : ""}
        </p>
        <PendingStatus pending={orders.isFetching && !orders.isPending} />
        <a
          href={refused ? undefined : ordersExportHref(query)}
          download
          aria-label={text.downloadLabel}
          aria-disabled={refused || undefined}
          className={`btn btn-sm btn-outline border-base-content/25 ${refused ? "btn-disabled" : ""}`}
        >
          <Icon
            path="M12 4v11m0 0l-4.5-4.5M12 15l4.5-4.5M5 19h14"
            className="size-4 fill-none stroke-current stroke-2"
          />
          {text.download}
        </a>
      </div>
      {refused ? null : orders.isPending ? (
        <Spinner />
      ) : orders.isError ? (
        orders.error instanceof ApiError && orders.error.status === 400 ? (
          <RefusedFilter error={orders.error} onClear={clear} />
        ) : (
          <AdminLoadError error={orders.error} onRetry={() => void orders.refetch()} />
        )
      ) : (
        <OrdersPage
          page={orders.data}
          position={position}
          shown={!orders.isPlaceholderData}
          filtered={isFiltered(filter)}
          onClear={clear}
        />
      )}
    </>
  );
}

type PageProps = {
  page: OrderPage;
  position: ReturnType<typeof usePagePosition>;
  shown: boolean;
  filtered: boolean;
  onClear: () => void;
};

/** One page of orders with Previous and Next, or why there is none. */
function OrdersPage({ page, position, shown, filtered, onClear }: PageProps) {
  const steps = position.steps(page);
  if (page.items.length === 0) return <NoOrders filtered={filtered || steps.number > 1} onClear={onClear} />;
  return (
    <div aria-busy={!shown || undefined}>
      <OrdersTable
        orders={page.items}
        first={(steps.number - 1) * LIST_PAGE_SIZE + 1}
        position={position}
        shown={shown}
      />
      <CursorPager texts={orderMessages.list} steps={steps} />
    </div>
  );
}
