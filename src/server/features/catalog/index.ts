/**
 * The catalog's public module: what other features may import from it (the layer check,
 * .dependency-cruiser.cjs, refuses any other path into this folder). A write that moves a
 * product's stock puts this notify in its statement so that every instance drops its cached pages.
 */
export { notifyCatalogChange } from "./listener.js";
