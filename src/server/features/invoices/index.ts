/**
 * The invoices feature's public module (the layer check, .dependency-cruiser.cjs, refuses any other
 * path into this folder): the receipt mail attaches a paid order's invoice, made by invoicePdf with
 * the configured seller (config.seller), through the renderer the invoice route uses too (app.ts).
 */
export { invoicePdf } from "./pdf.js";
export { invoiceRenderer } from "./renderer.js";
