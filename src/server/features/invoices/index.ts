/**
 * The invoices feature's public module (the layer check, .dependency-cruiser.cjs, refuses any other
 * path into this folder): the receipt mail attaches a paid order's invoice, made by invoicePdf with
 * the configured seller (config.seller), through the renderer the invoice route uses too (app.ts);
 * the refund mail attaches a refunded order's credit note, made by creditNotePdf, the same way.
 */
export { creditNotePdf } from "./credit-note.js";
export { invoicePdf } from "./pdf.js";
export { invoiceRenderer } from "./renderer.js";
