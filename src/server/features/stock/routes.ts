import { productIdParamsSchema } from "../../../shared/catalog.js";
import {
  lowStockThresholdSchema,
  productStockSchema,
  stockAdjustedSchema,
  stockAdjustmentSchema,
  stockHistoryQuerySchema,
  stockHistorySchema,
} from "../../../shared/stock.js";
import { csvAnswer, sendCsv } from "../../lib/csv.js";
import { featureRoutes } from "../../lib/routes.js";
import { actorOf } from "../activity/index.js";
import { changeCatalog } from "../catalog/index.js";
import { stockCsv } from "./csv.js";
import { adjustStock, getStock, setThreshold, stockHistory } from "./service.js";

/** The stock ledger's admin routes (docs/product.md, "Stock ledger" and "Low-stock alerts"). */
export const stockRoutes = featureRoutes(["stock"], async (app, route) => {
  app.get(
    "/api/products/:id/stock",
    route.admin({
      summary: "A product's stock and low-stock threshold (admin)",
      params: productIdParamsSchema,
      response: { 200: productStockSchema },
      problems: [404],
    }),
    async (request) => getStock(app.db, request.params.id),
  );

  app.post(
    "/api/products/:id/stock/adjustments",
    route.stepUp({
      summary: "Set a product's stock, or add or take away units, with a note (admin)",
      description:
        "Written to the stock ledger as an adjustment by the signed-in admin. 409 when it would take the stock below zero or above the largest stock.",
      params: productIdParamsSchema,
      body: stockAdjustmentSchema,
      response: { 200: stockAdjustedSchema },
      problems: [404, 409],
    }),
    async (request) =>
      changeCatalog(app.catalogCache, (change) =>
        adjustStock(app.db, request.params.id, request.user.id, request.body, change, actorOf(request)),
      ),
  );

  app.put(
    "/api/products/:id/stock/threshold",
    route.admin({
      summary: "Set a product's low-stock threshold, or null for the shop's default (admin)",
      params: productIdParamsSchema,
      body: lowStockThresholdSchema,
      response: { 200: productStockSchema },
      problems: [404],
    }),
    async (request) => setThreshold(app.db, request.params.id, request.body),
  );

  app.get(
    "/api/products/:id/stock/movements",
    route.admin({
      summary: "A product's stock history, newest first, a page at a time (admin)",
      params: productIdParamsSchema,
      querystring: stockHistoryQuerySchema,
      response: { 200: stockHistorySchema },
      problems: [404],
    }),
    async (request) => stockHistory(app.reads.of(request).db, request.params.id, request.query),
  );

  app.get(
    "/api/products/:id/stock/movements.csv",
    route.admin({
      summary: "A product's whole stock history as CSV, newest first (admin)",
      params: productIdParamsSchema,
      produces: ["text/csv"],
      response: {
        200: csvAnswer("RFC 4180 CSV, formula-safe"),
      },
      problems: [404],
    }),
    async (request, reply) => {
      const csv = await stockCsv(app.reads.of(request), request.params.id);
      return sendCsv(reply, `stock-${request.params.id.slice(0, 8)}`, csv);
    },
  );
});
