import { trackingUrl } from "../../shared/carriers.js";
import { mailPreferenceMessages } from "../../shared/messages/mail-preferences.js";
import { orderMessages } from "../../shared/messages/orders.js";
import type { Order, OrderStatus } from "../../shared/orders.js";
import { formatDay } from "../lib/format.js";

const dates = orderMessages.dates;
const tracking = mailPreferenceMessages.tracking;

const BADGE: Record<OrderStatus, string> = {
  pending: "badge-warning badge-soft",
  paid: "badge-success badge-soft",
  shipped: "badge-info badge-soft",
  refunded: "badge-secondary badge-soft",
  expired: "badge-error badge-soft",
};

/** An order's status in words (Not Paid, Paid, Shipped, Refunded, Expired). */
export function OrderStatusBadge({ status }: { status: OrderStatus }) {
  return <span className={`badge whitespace-nowrap ${BADGE[status]}`}>{orderMessages.status[status]}</span>;
}

/**
 * Who carries a shipped order and its tracking number, when the admin gave them: the number links
 * to the carrier's tracking page when the carrier is known (shared/carriers.ts), in a new tab.
 */
export function OrderTracking({ order, className = "" }: { order: Order; className?: string }) {
  if (!order.carrier) return null;
  const url = trackingUrl(order.carrier, order.trackingNumber);
  if (url && order.trackingNumber)
    return (
      <p className={`break-words ${className}`}>
        {tracking.label(order.carrier)}{" "}
        <a href={url} target="_blank" rel="noopener noreferrer" className="link link-primary">
          {order.trackingNumber}
          <span className="sr-only"> {tracking.newTab}</span>
        </a>
      </p>
    );
  return (
    <p className={`break-words ${className}`}>
      {order.trackingNumber
        ? dates.tracking(order.carrier, order.trackingNumber)
        : dates.carrierOnly(order.carrier)}
    </p>
  );
}

/** The days an order was placed, paid, shipped, refunded or expired on: those it has, in that order. */
export function OrderDates({ order, className = "" }: { order: Order; className?: string }) {
  const lines = [
    dates.placed(formatDay(order.createdAt)),
    order.paidAt ? dates.paid(formatDay(order.paidAt)) : null,
    order.shippedAt ? dates.shipped(formatDay(order.shippedAt)) : null,
    order.refundedAt ? dates.refunded(formatDay(order.refundedAt)) : null,
    order.expiredAt ? dates.expired(formatDay(order.expiredAt)) : null,
  ].filter((line): line is string => line !== null);
  return (
    <ul className={className}>
      {lines.map((line) => (
        <li key={line}>{line}</li>
      ))}
    </ul>
  );
}
