export * from "./auth.js";
export * from "./catalog.js";
export * from "./invoices.js";
export * from "./mail.js";
export * from "./orders.js";
export * from "./overview.js";
export * from "./profile.js";
export * from "./stock-notices.js";
