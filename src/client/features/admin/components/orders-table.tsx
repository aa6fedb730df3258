import { useId } from "react";
import { toast } from "sonner";
import { messages } from "../../../../shared/messages.js";
import type { Order } from "../../../../shared/orders.js";
import { ConfirmDialog } from "../../../components/confirm-dialog.js";
import { DataTable } from "../../../components/data-table.js";
import { PendingButton } from "../../../components/pending-button.js";
import { TableRegion } from "../../../components/table-region.js";
import { problemMessage } from "../../../lib/form-errors.js";
import { formatCount, formatPrice } from "../../../lib/format.js";
import { useConfirmedRemoval } from "../../../lib/use-confirmed-removal.js";
import { useRemoveOrder } from "../../orders/api/remove-order.js";
import { OrderThumbnail } from "../../orders/components/order-thumbnail.js";
import { overviewQueryKey } from "../api/get-overview.js";
import { useShipOrder } from "../api/ship-order.js";

const text = messages.admin.orders;
const COLUMNS = [
  messages.admin.serial,
  text.image,
  text.product,
  text.customer,
  text.quantity,
  text.total,
  text.phone,
  text.payment,
  text.action,
];
// The overview counts orders by state: a removal changes it.
const ALSO_STALE = [overviewQueryKey];

function ShipButton({ order }: { order: Order }) {
  const ship = useShipOrder();
  return (
    <PendingButton
      className="btn btn-sm btn-primary"
      aria-label={text.shipFor(order.productName, order.name)}
      pending={ship.isPending}
      spinner="xs"
      onClick={() =>
        ship.mutate(order.id, {
          onSuccess: () => toast.success(text.markedShipped),
          onError: (error) => toast.error(problemMessage(error)),
        })
      }
    >
      {text.ship}
    </PendingButton>
  );
}

/**
 * Manage Orders (SPEC.md §2): every order with its payment state, Ship for a paid one (then
 * Shipped), Remove for an unpaid one behind the spec's confirm dialog.
 */
export function OrdersTable({ orders }: { orders: Order[] }) {
  const removal = useConfirmedRemoval<Order>(useRemoveOrder(ALSO_STALE), messages.order.removed);
  const target = removal.target;
  const captionId = useId();

  return (
    <>
      <TableRegion labelledBy={captionId} ref={removal.regionRef}>
        <DataTable
          caption={text.caption}
          captionId={captionId}
          columns={COLUMNS}
          rows={orders}
          empty={text.none}
        >
          {(order, index) => (
            <tr key={order.id}>
              <th scope="row">{index + 1}</th>
              <td>
                <OrderThumbnail src={order.img} alt={text.imageAlt(order.productName)} />
              </td>
              <td className="min-w-40 font-medium">{order.productName}</td>
              <td className="min-w-40">
                <span className="block">{order.name}</span>
                <span className="block break-all text-sm text-base-content/75">{order.email}</span>
              </td>
              <td>{formatCount(order.quantity)}</td>
              <td>{formatPrice(order.totalPrice)}</td>
              <td className="whitespace-nowrap">{order.phone}</td>
              <td>
                <span
                  className={`badge badge-soft whitespace-nowrap ${order.paid ? "badge-success" : "badge-warning"}`}
                >
                  {order.paid ? text.paid : text.notPaid}
                </span>
              </td>
              <td>
                {order.status === "shipped" ? (
                  <span className="badge badge-info badge-soft">{text.shipped}</span>
                ) : order.paid ? (
                  <ShipButton order={order} />
                ) : (
                  <button
                    type="button"
                    className="btn btn-sm btn-error btn-outline"
                    aria-label={text.removeFor(order.productName, order.name)}
                    onClick={() => removal.ask(order)}
                  >
                    {text.remove}
                  </button>
                )}
              </td>
            </tr>
          )}
        </DataTable>
      </TableRegion>
      <ConfirmDialog
        {...removal.dialog}
        title={messages.order.confirmDelete}
        text={
          target ? text.confirmText(formatCount(target.quantity), target.productName, target.name) : undefined
        }
        confirmLabel={text.remove}
        cancelLabel={messages.admin.cancel}
      />
    </>
  );
}
