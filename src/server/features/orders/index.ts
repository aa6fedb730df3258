/**
 * The orders feature's public module: what other features may import from it (the layer check,
 * .dependency-cruiser.cjs, refuses any other path into this folder). Payments answers with the
 * order it marked paid, in the same shape as the orders routes.
 */
export { toOrder } from "./service.js";
