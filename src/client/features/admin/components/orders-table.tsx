import { useState } from "react";
import { creditNotePath } from "../../../../shared/credit-notes.js";
import { orderNumber } from "../../../../shared/format.js";
import { adminMessages } from "../../../../shared/messages/admin.js";
import { orderMessages } from "../../../../shared/messages/orders.js";
import { pricingMessages } from "../../../../shared/messages/pricing.js";
import { orderTotal } from "../../../../shared/order-amounts.js";
import type { Order } from "../../../../shared/orders.js";
import { OrderTotal } from "../../../components/order-amounts.js";
import { OrderTracking } from "../../../components/order-lifecycle.js";
import { OrderNumber } from "../../../components/order-number.js";
import { OrderThumbnail, orderCardHead } from "../../../components/order-thumbnail.js";
import { RemovalDialog, RemoveButton } from "../../../components/removal.js";
import { ListCard, ResponsiveList } from "../../../components/responsive-list.js";
import { formatCount, formatDay } from "../../../lib/format.js";
import { adminKeys } from "../../../lib/query-keys.js";
import { useRemoveOrder } from "../../../lib/remove-order.js";
import { useConfirmedRemoval } from "../../../lib/use-confirmed-removal.js";
import { type PagePosition, useFocusOnNewPage } from "../../../lib/use-page-position.js";
import { useRefundOrder } from "../api/refund-order.js";
import { ShipDialog } from "./ship-dialog.js";

const text = adminMessages.orders;
const COLUMNS = [
  adminMessages.serial,
  text.product,
  text.customer,
  text.ordered,
  text.quantity,
  text.total,
  text.payment,
  text.action,
];
// The overview counts orders by state and charts them: a removal changes both.
const ALSO_STALE = [adminKeys.overview(), adminKeys.sales()];

type RowActions = {
  onRemove: (order: Order) => void;
  onShip: (order: Order) => void;
  onRefund: (order: Order) => void;
};

/**
 * Paid or Not Paid (the spec's words), except that a refunded order says Refunded alone: it was
 * paid, but the money went back, and "Paid" beside "Refunded" read as both (issue 31).
 */
function PaymentBadge({ order }: { order: Order }) {
  if (order.status === "refunded")
    return (
      <span className="badge badge-secondary badge-soft whitespace-nowrap">{text.statuses.refunded}</span>
    );
  return (
    <span className={`badge badge-soft whitespace-nowrap ${order.paid ? "badge-success" : "badge-warning"}`}>
      {order.paid ? text.paid : text.notPaid}
    </span>
  );
}

/**
 * Remove (unpaid), Ship and Refund (paid), or what became of the order: Shipped with its carrier and
 * tracking number, Expired, a refunded one's credit note to download (its payment column says
 * Refunded). Ship and Refund open their dialogs.
 */
function OrderAction({ order, onRemove, onShip, onRefund }: RowActions & { order: Order }) {
  switch (order.status) {
    case "pending":
      return (
        <RemoveButton
          label={text.remove}
          name={text.removeFor(order.productName, order.name)}
          onClick={() => onRemove(order)}
        />
      );
    case "paid":
      return (
        <div className="flex flex-wrap gap-2">
          <button
            type="button"
            className="btn btn-sm btn-primary"
            aria-label={text.shipFor(order.productName, order.name)}
            onClick={() => onShip(order)}
          >
            {text.ship}
          </button>
          <button
            type="button"
            className="btn btn-sm btn-outline border-base-content/25"
            aria-label={orderMessages.refund.actionFor(order.productName, order.name)}
            onClick={() => onRefund(order)}
          >
            {orderMessages.refund.action}
          </button>
        </div>
      );
    case "shipped":
      return (
        <div className="flex flex-col items-start gap-1">
          <span className="badge badge-info badge-soft">{text.shipped}</span>
          <OrderTracking order={order} className="text-sm text-base-content/80" />
        </div>
      );
    case "refunded":
      // Nothing more to do (its payment column says Refunded) but its credit note to download.
      return order.creditNoteNumber !== null ? (
        <a
          href={creditNotePath(order.id)}
          download
          className="btn btn-sm btn-outline border-base-content/25"
          aria-label={text.creditNoteFor(order.productName, order.name)}
        >
          {text.creditNote}
        </a>
      ) : null;
    case "expired":
      return <span className="badge badge-error badge-soft whitespace-nowrap">{text.statuses.expired}</span>;
  }
}

/** The customer's name, email and phone, and the address to ship to. */
function Customer({ order }: { order: Order }) {
  return (
    <>
      <span className="block">{order.name}</span>
      <span className="block break-all text-sm text-base-content/75">{order.email}</span>
      <span className="block whitespace-nowrap text-sm text-base-content/75">
        <span className="sr-only">{text.phone}: </span>
        {order.phone}
      </span>
      <span className="mt-1 block whitespace-pre-line break-words text-sm">
        <span className="font-medium">{text.shipTo}: </span>
        {order.address}
      </span>
    </>
  );
}

/** What the customer pays (the gross), and its amounts under it when there is a discount or tax. */
function Total({ order, serial }: { order: Order; serial: number }) {
  return <OrderTotal order={order} label={pricingMessages.amounts.detailsFor(serial, order.productName)} />;
}

type RowProps = RowActions & { order: Order; serial: number };

function OrderRow({ order, serial, ...actions }: RowProps) {
  return (
    <tr>
      <th scope="row">{serial}</th>
      <td className="min-w-44">
        <div className="flex items-center gap-3">
          <OrderThumbnail src={order.img} alt={text.imageAlt(order.productName)} />
          <span>
            <span className="block font-medium">{order.productName}</span>
            <OrderNumber id={order.id} label={text.orderNumber} />
          </span>
        </div>
      </td>
      <td className="min-w-44">
        <Customer order={order} />
      </td>
      <td className="whitespace-nowrap">{formatDay(order.createdAt)}</td>
      <td>{formatCount(order.quantity)}</td>
      <td>
        <Total order={order} serial={serial} />
      </td>
      <td>
        <PaymentBadge order={order} />
      </td>
      <td>
        <OrderAction order={order} {...actions} />
      </td>
    </tr>
  );
}

/** Narrow screens: one card per order, every field and the action in view. */
function OrderCard({ order, serial, headingId, ...actions }: RowProps & { headingId: string }) {
  return (
    <ListCard
      headingId={headingId}
      serialLabel={adminMessages.serial}
      serial={serial}
      {...orderCardHead(order, text.imageAlt)}
      subtitle={<Customer order={order} />}
      details={[
        {
          label: text.orderNumber,
          value: <span className="font-mono text-xs">{orderNumber(order.id)}</span>,
        },
        { label: text.ordered, value: formatDay(order.createdAt) },
        { label: text.quantity, value: formatCount(order.quantity) },
        { label: text.total, value: <Total order={order} serial={serial} /> },
      ]}
      footer={
        <div className="flex flex-wrap items-center justify-between gap-2">
          <PaymentBadge order={order} />
          <OrderAction order={order} {...actions} />
        </div>
      }
    />
  );
}

type Props = {
  orders: readonly Order[];
  first: number;
  /** Where the page starts, and whether its orders are on show (not the last page's, kept while it loads). */
  position: PagePosition;
  shown: boolean;
};

/**
 * Manage Orders (docs/product.md, Pages): a page of orders with their payment state; Ship (with an
 * optional carrier and tracking number) and Refund for a paid one, each in a dialog, then Shipped or
 * Refunded; Remove for an unpaid one behind a confirm dialog; Expired for one whose hold ran out. A table on wide screens,
 * cards on narrow ones.
 */
export function OrdersTable({ orders, first, position, shown }: Props) {
  const removal = useConfirmedRemoval<Order>(useRemoveOrder(ALSO_STALE), orderMessages.removed);
  const regionRef = removal.regionRef;
  const refund = useConfirmedRemoval<Order>(useRefundOrder(), orderMessages.refund.done, regionRef);
  const [shipping, setShipping] = useState<Order | null>(null);
  useFocusOnNewPage(regionRef, position, shown);
  const actions: RowActions = { onRemove: removal.ask, onShip: setShipping, onRefund: refund.ask };

  return (
    <>
      <ResponsiveList
        caption={text.caption}
        columns={COLUMNS}
        items={orders}
        first={first}
        row={(order, serial) => <OrderRow key={order.id} order={order} serial={serial} {...actions} />}
        card={(order, serial, headingId) => (
          <OrderCard order={order} serial={serial} headingId={headingId} {...actions} />
        )}
        // Narrower cell padding than daisyUI's, so every column fits beside the menu.
        tableClassName="[&_td]:px-2.5 [&_th]:px-2.5"
        ref={regionRef}
      />
      <RemovalDialog
        removal={removal}
        title={orderMessages.confirmDelete}
        explain={(order) => text.confirmText(formatCount(order.quantity), order.productName, order.name)}
        confirmLabel={text.remove}
      />
      <RemovalDialog
        removal={refund}
        title={orderMessages.refund.title}
        explain={(order) => orderMessages.refund.confirm(orderTotal(order))}
        confirmLabel={orderMessages.refund.confirmButton}
      />
      <ShipDialog order={shipping} onClose={() => setShipping(null)} regionRef={regionRef} />
    </>
  );
}
