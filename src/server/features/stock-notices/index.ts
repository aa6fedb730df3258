import type { FastifyPluginAsync } from "fastify";
import { runInBackground } from "../../lib/periodic.js";
import { startStockNoticeJob } from "./job.js";

export { unsubscribeUrl } from "./token.js";

/**
 * The back-in-stock job (job.ts) on this instance, every STOCK_NOTICE_INTERVAL_SECONDS (never when
 * 0): queues the mails of subscriptions whose product is back, and removes old ones. Every
 * instance may run it: its statements skip each other's rows.
 */
export const stockNoticePlugin: FastifyPluginAsync = async (app) => {
  runInBackground(app, {
    start: () =>
      app.config.stockNoticeIntervalSeconds > 0
        ? startStockNoticeJob(app.db, app.config.stockNoticeIntervalSeconds, app.log)
        : undefined,
  });
};
