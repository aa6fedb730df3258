/**
 * The orders feature's public module: what other features may import from it (the layer check,
 * .dependency-cruiser.cjs, refuses any other path into this folder). Payments answers with the
 * order it marked paid, in the same shape as the orders routes, and moves orders (pay, refund)
 * through the lifecycle's one state machine.
 */

export { orderCells } from "./csv-cells.js";
export type { ReleaseIntents } from "./expiry.js";
export { movableBy, nextStatus, verdict } from "./lifecycle.js";
export { removeUnpaidOrdersOf } from "./remove-unpaid.js";
export { toOrder } from "./service.js";
