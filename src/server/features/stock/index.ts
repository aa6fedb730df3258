/**
 * The stock ledger and low-stock alerts (migration 0018): the admin routes, and the plugin that
 * writes the shop's low-stock default for the database's triggers at start-up.
 */
import type { FastifyPluginAsync } from "fastify";
import { applyLowStockDefault } from "./service.js";

export { stockRoutes } from "./routes.js";

/** Before the app serves: LOW_STOCK_THRESHOLD into stock_setting (see applyLowStockDefault). */
export const stockSettings: FastifyPluginAsync = async (app) => {
  app.addHook("onReady", async () => {
    if (await applyLowStockDefault(app.db, app.config.lowStockThreshold))
      app.log.info({ lowStockThreshold: app.config.lowStockThreshold }, "low-stock default changed");
  });
};
