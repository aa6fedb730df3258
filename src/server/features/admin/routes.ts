import { adminOverviewSchema, adminSalesSchema } from "../../../shared/admin.js";
import { featureRoutes } from "../../lib/routes.js";
import { getOverview, getSales } from "./service.js";

export const adminRoutes = featureRoutes(["admin"], async (app, route) => {
  app.get(
    "/api/admin/overview",
    route.admin({
      summary: "Counts of users and orders by state, and the products low on stock (admin)",
      response: { 200: adminOverviewSchema },
    }),
    async (request) => getOverview(app.reads.of(request).db),
  );

  // Apart from the overview: the cards answer first and stay within their own budget, and the
  // charts' data loads beside the chart library, which only this page downloads.
  app.get(
    "/api/admin/sales",
    route.admin({
      summary:
        "The overview's charts: orders, payments and revenue per UTC day for the last 30 days, orders by status, top products by units (admin)",
      response: { 200: adminSalesSchema },
    }),
    async (request) => getSales(app.reads.of(request).db),
  );
});
