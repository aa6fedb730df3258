import { Link } from "react-router";
import { toast } from "sonner";
import { messages } from "../../../../shared/messages.js";
import type { Order } from "../../../../shared/orders.js";
import { LoadError } from "../../../components/load-error.js";
import { Spinner } from "../../../components/spinner.js";
import { problemMessage } from "../../../lib/form-errors.js";
import { formatCount, formatPrice } from "../../../lib/format.js";
import { paths } from "../../../lib/paths.js";
import { DashboardHeading } from "../../dashboard/components/dashboard-heading.js";
import { useMyOrders } from "../api/get-my-orders.js";
import { useRemoveOrder } from "../api/remove-order.js";

const text = messages.order.table;

function OrderRow({ order, serial }: { order: Order; serial: number }) {
  const remove = useRemoveOrder();
  const removing = remove.isPending && remove.variables === order.id;
  const onRemove = () =>
    remove.mutate(order.id, {
      onSuccess: () => toast.success(messages.order.removed),
      onError: (error) => toast.error(problemMessage(error)),
    });
  return (
    <tr>
      <th scope="row">{serial}</th>
      <td>
        <img
          src={order.img}
          alt={text.imageAlt(order.productName)}
          width={56}
          height={56}
          loading="lazy"
          className="size-14 rounded-box border border-base-content/10 bg-base-300 object-contain"
        />
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
          <button
            type="button"
            className="btn btn-sm btn-error btn-outline"
            onClick={onRemove}
            disabled={removing}
            aria-label={text.removeFor(order.productName)}
          >
            {removing ? <span className="loading loading-spinner loading-xs" aria-hidden="true" /> : null}
            {text.remove}
          </button>
        )}
      </td>
    </tr>
  );
}

/** /dashboard: the customer's own orders (SPEC.md §2 My Orders). */
export function MyOrdersPage() {
  const orders = useMyOrders();
  return (
    <>
      <DashboardHeading title={messages.dashboard.myOrders} lead={messages.dashboard.myOrdersLead} />
      {orders.isPending ? (
        <Spinner />
      ) : orders.isError ? (
        <LoadError onRetry={() => void orders.refetch()} />
      ) : orders.data.length === 0 ? (
        <div className="flex flex-col items-start gap-4 rounded-box border border-base-content/10 bg-base-200 p-8">
          <p>{text.empty}</p>
          <Link to={paths.tools} className="btn btn-primary">
            {text.browse}
          </Link>
        </div>
      ) : (
        <div className="overflow-x-auto rounded-box border border-base-content/10 bg-base-200">
          <table className="table">
            <caption className="sr-only">{text.caption}</caption>
            <thead>
              <tr>
                <th scope="col">{text.serial}</th>
                <th scope="col">{text.image}</th>
                <th scope="col">{text.product}</th>
                <th scope="col">{text.quantity}</th>
                <th scope="col">{text.total}</th>
                <th scope="col">{text.phone}</th>
                <th scope="col">{text.payment}</th>
                <th scope="col">{text.action}</th>
              </tr>
            </thead>
            <tbody>
              {orders.data.map((order, index) => (
                <OrderRow key={order.id} order={order} serial={index + 1} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
