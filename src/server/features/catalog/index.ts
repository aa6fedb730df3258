/**
 * The catalog's public module: what other features may import from it (the layer check,
 * .dependency-cruiser.cjs, refuses any other path into this folder). A write that moves a
 * product's stock goes through changeCatalog, so that every instance drops its cached pages.
 */

export type { CatalogCache } from "./cache.js";
export { type CatalogChange, changeCatalog } from "./changes.js";
