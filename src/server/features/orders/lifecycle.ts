import { eq, type SQL } from "drizzle-orm";
import { orderMessages } from "../../../shared/messages/orders.js";
import { paymentMessages } from "../../../shared/messages/payments.js";
import type { OrderStatus } from "../../../shared/orders.js";
import { orders } from "../../db/schema/index.js";
import { conflict, type HttpProblem } from "../../lib/problem.js";

/**
 * The order lifecycle, the one place its rules live (docs/decisions/order-lifecycle.md):
 *
 *   pending -> paid | expired | removed (the row is deleted)
 *   paid    -> shipped | refunded
 *
 * Every route, webhook and job that changes an order's status moves it with a conditional
 * statement (`UPDATE … WHERE status = <from>`, or the DELETE of a removal) built from this table,
 * so two racing changes resolve in the database: one wins, the other finds the order moved on and
 * is answered by `verdict` for the state it found.
 */
export const ORDER_ACTIONS = ["pay", "expire", "remove", "ship", "refund"] as const;
export type OrderAction = (typeof ORDER_ACTIONS)[number];
/** "removed" is terminal and leaves no row behind. */
export type OrderState = OrderStatus | "removed";

const MOVES: Record<OrderAction, { from: OrderStatus; to: OrderState }> = {
  pay: { from: "pending", to: "paid" },
  expire: { from: "pending", to: "expired" },
  remove: { from: "pending", to: "removed" },
  ship: { from: "paid", to: "shipped" },
  refund: { from: "paid", to: "refunded" },
};

/** Why an action is refused in a state it cannot leave that way: the 409's text. */
const REFUSALS: Record<OrderAction, Partial<Record<OrderStatus, string>>> = {
  pay: {
    paid: paymentMessages.alreadyPaid,
    shipped: paymentMessages.alreadyPaid,
    refunded: orderMessages.lifecycle.refunded,
    expired: orderMessages.lifecycle.expired,
  },
  expire: {
    paid: orderMessages.lifecycle.paidNoExpiry,
    shipped: orderMessages.lifecycle.paidNoExpiry,
    refunded: orderMessages.lifecycle.refunded,
  },
  remove: {
    paid: orderMessages.alreadyPaid,
    shipped: orderMessages.alreadyPaid,
    refunded: orderMessages.lifecycle.refunded,
    expired: orderMessages.lifecycle.expired,
  },
  ship: {
    pending: orderMessages.lifecycle.notPaidForShipping,
    refunded: orderMessages.lifecycle.refunded,
    expired: orderMessages.lifecycle.expired,
  },
  refund: {
    pending: orderMessages.lifecycle.notPaidForRefund,
    shipped: orderMessages.lifecycle.shippedNoRefund,
    expired: orderMessages.lifecycle.expired,
  },
};

/** The state an action starts from. */
export const fromState = (action: OrderAction): OrderStatus => MOVES[action].from;
/** The state an action leads to. */
export const toState = (action: OrderAction): OrderState => MOVES[action].to;

/** The status an UPDATE sets for an action (every action but removal keeps the row). */
export function nextStatus(action: Exclude<OrderAction, "remove">): OrderStatus {
  const to = MOVES[action].to;
  if (to === "removed") throw new Error(`${action} removes the order`);
  return to;
}

/** The condition of the conditional statement that takes an order through `action`. */
export const movableBy = (action: OrderAction): SQL => eq(orders.status, MOVES[action].from) as SQL;

/**
 * What `action` means for an order found in `status`: it may move; it is already where the action
 * leads (a retry: ship on shipped, refund on refunded, expire on expired, pay on paid, which the
 * caller answers as success when it is the same request); or it is refused with a 409.
 */
export type Verdict = { kind: "move" } | { kind: "already" } | { kind: "refused"; problem: HttpProblem };

export function verdict(status: OrderStatus, action: OrderAction): Verdict {
  if (status === MOVES[action].from) return { kind: "move" };
  if (status === MOVES[action].to) return { kind: "already" };
  const text = REFUSALS[action][status];
  if (!text) throw new Error(`no refusal for ${action} on ${status}`);
  return { kind: "refused", problem: conflict(text) };
}
