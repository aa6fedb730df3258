import { useId, useRef, useState } from "react";
import { toast } from "sonner";
import { messages } from "../../../../shared/messages.js";
import type { Order } from "../../../../shared/orders.js";
import { ConfirmDialog } from "../../../components/confirm-dialog.js";
import { TableRegion } from "../../../components/table-region.js";
import { problemMessage } from "../../../lib/form-errors.js";
import { formatCount, formatPrice } from "../../../lib/format.js";
import { useRemoveOrder } from "../api/remove-order.js";
import { useShipOrder } from "../api/ship-order.js";

const text = messages.admin.orders;

function ShipButton({ order }: { order: Order }) {
  const ship = useShipOrder();
  return (
    <button
      type="button"
      className="btn btn-sm btn-primary"
      aria-label={text.shipFor(order.productName, order.name)}
      disabled={ship.isPending}
      onClick={() =>
        ship.mutate(order.id, {
          onSuccess: () => toast.success(text.markedShipped),
          onError: (error) => toast.error(problemMessage(error)),
        })
      }
    >
      {ship.isPending ? <span className="loading loading-spinner loading-xs" aria-hidden="true" /> : null}
      {text.ship}
    </button>
  );
}

/**
 * Manage Orders (SPEC.md §2): every order with its payment state, Ship for a paid one (then
 * Shipped), Remove for an unpaid one behind the spec's confirm dialog.
 */
export function OrdersTable({ orders }: { orders: Order[] }) {
  const remove = useRemoveOrder();
  const [target, setTarget] = useState<Order | null>(null);
  const captionId = useId();
  const regionRef = useRef<HTMLElement>(null);
  // Set once a removal succeeds: the row that had focus is gone, so focus goes to the table.
  const refocus = useRef(false);

  const confirm = () => {
    if (!target) return;
    remove.mutate(target.id, {
      onSuccess: () => {
        toast.success(messages.order.removed);
        refocus.current = true;
        setTarget(null);
      },
      onError: (error) => {
        toast.error(problemMessage(error));
        setTarget(null);
      },
    });
  };

  const onClose = () => {
    setTarget(null);
    if (refocus.current) {
      refocus.current = false;
      regionRef.current?.focus();
    }
  };

  return (
    <>
      <TableRegion labelledBy={captionId} ref={regionRef}>
        <table className="table">
          <caption id={captionId} className="px-4 pt-4 text-left text-lg font-semibold">
            {text.caption}
          </caption>
          <thead>
            <tr>
              <th scope="col">{messages.admin.serial}</th>
              <th scope="col">{text.image}</th>
              <th scope="col">{text.product}</th>
              <th scope="col">{text.customer}</th>
              <th scope="col">{text.quantity}</th>
              <th scope="col">{text.total}</th>
              <th scope="col">{text.phone}</th>
              <th scope="col">{text.payment}</th>
              <th scope="col">{text.action}</th>
            </tr>
          </thead>
          <tbody>
            {orders.length === 0 ? (
              <tr>
                <td colSpan={9} className="text-base-content/75">
                  {text.none}
                </td>
              </tr>
            ) : (
              orders.map((order, index) => (
                <tr key={order.id}>
                  <th scope="row">{index + 1}</th>
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
                        onClick={() => setTarget(order)}
                      >
                        {text.remove}
                      </button>
                    )}
                  </td>
                </tr>
              ))
            )}
          </tbody>
        </table>
      </TableRegion>
      <ConfirmDialog
        open={target !== null}
        title={messages.order.confirmDelete}
        text={
          target ? text.confirmText(formatCount(target.quantity), target.productName, target.name) : undefined
        }
        confirmLabel={text.remove}
        cancelLabel={messages.admin.cancel}
        pending={remove.isPending}
        onConfirm={confirm}
        onClose={onClose}
      />
    </>
  );
}
