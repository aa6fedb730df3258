import { useRef } from "react";
import { Link } from "react-router";
import { toast } from "sonner";
import { dashboardMessages } from "../../../../shared/messages/dashboard.js";
import { orderMessages } from "../../../../shared/messages/orders.js";
import type { Order } from "../../../../shared/orders.js";
import { LIST_PAGE_SIZE } from "../../../../shared/paging.js";
import { CursorPager } from "../../../components/cursor-pager.js";
import { DashboardHeading } from "../../../components/dashboard-heading.js";
import { DataTable } from "../../../components/data-table.js";
import { LoadError } from "../../../components/load-error.js";
import { OrderThumbnail } from "../../../components/order-thumbnail.js";
import { RemoveButton } from "../../../components/removal.js";
import { Spinner } from "../../../components/spinner.js";
import { problemMessage } from "../../../lib/form-errors.js";
import { formatCount, formatPrice } from "../../../lib/format.js";
import { paths } from "../../../lib/paths.js";
import { useRemoveOrder } from "../../../lib/remove-order.js";
import { useFocusOnNewPage, usePagePosition } from "../../../lib/use-page-position.js";
import { useMyOrders } from "../api/get-my-orders.js";

const text = orderMessages.table;
const COLUMNS = [
  text.serial,
  text.image,
  text.product,
  text.quantity,
  text.total,
  text.phone,
  text.payment,
  text.action,
];

function OrderRow({ order, serial }: { order: Order; serial: number }) {
  const remove = useRemoveOrder();
  const onRemove = () =>
    remove.mutate(order.id, {
      onSuccess: () => toast.success(orderMessages.removed),
      onError: (error) => toast.error(problemMessage(error)),
    });
  return (
    <tr>
      <th scope="row">{serial}</th>
      <td>
        <OrderThumbnail src={order.img} alt={text.imageAlt(order.productName)} />
      </td>
      <td className="font-medium">{order.productName}</td>
      <td>{formatCount(order.quantity)}</td>
      <td>{formatPrice(order.totalPrice)}</td>
      <td>{order.phone}</td>
      <td>
        {order.paid ? (
          <span className="badge badge-success badge-soft">
            {order.status === "shipped" ? `${text.paid} · ${text.shipped}` : text.paid}
          </span>
        ) : (
          <Link
            to={paths.dashboard.payment(order.id)}
            className="btn btn-sm btn-primary"
            aria-label={text.payFor(order.productName)}
          >
            {text.pay}
          </Link>
        )}
      </td>
      <td>
        {order.paid ? (
          <code className="break-all text-xs">{order.transactionId}</code>
        ) : (
          <RemoveButton
            label={text.remove}
            name={text.removeFor(order.productName)}
            onClick={onRemove}
            pending={remove.isPending && remove.variables === order.id}
          />
        )}
      </td>
    </tr>
  );
}

/** /dashboard: the customer's own orders (docs/product.md, Pages: My Orders), a page at a time. */
export function MyOrdersPage() {
  const position = usePagePosition();
  const orders = useMyOrders(position);
  const regionRef = useRef<HTMLDivElement>(null);
  useFocusOnNewPage(regionRef, position, !orders.isPlaceholderData);
  const page = orders.data;
  const steps = page ? position.steps(page) : undefined;
  return (
    <>
      <DashboardHeading title={dashboardMessages.myOrders} lead={dashboardMessages.myOrdersLead} />
      {orders.isPending ? (
        <Spinner />
      ) : orders.isError ? (
        <LoadError onRetry={() => void orders.refetch()} />
      ) : orders.data.items.length === 0 || !steps ? (
        <div className="flex flex-col items-start gap-4 rounded-box border border-base-content/10 bg-base-200 p-8">
          <p>{text.empty}</p>
          <Link to={paths.tools} className="btn btn-primary">
            {text.browse}
          </Link>
        </div>
      ) : (
        <div aria-busy={orders.isPlaceholderData || undefined}>
          <p role="status" className="mb-3 font-medium">
            {orderMessages.list.count(orders.data.total.count, orders.data.total.exact)}
          </p>
          <div
            ref={regionRef}
            tabIndex={-1}
            className="overflow-x-auto rounded-box border border-base-content/10 bg-base-200"
          >
            <DataTable caption={text.caption} hideCaption columns={COLUMNS} rows={orders.data.items}>
              {(order, index) => (
                <OrderRow
                  key={order.id}
                  order={order}
                  serial={(steps.number - 1) * LIST_PAGE_SIZE + index + 1}
                />
              )}
            </DataTable>
          </div>
          <CursorPager
            label={orderMessages.list.pages}
            previous={{ label: orderMessages.list.previous, href: steps.previous }}
            next={{ label: orderMessages.list.next, href: steps.next }}
          />
        </div>
      )}
    </>
  );
}
