import { z } from "zod";
import {
  myOrdersQuerySchema,
  orderFilterSchema,
  orderIdParamsSchema,
  orderInputSchema,
  orderListQuerySchema,
  orderPageSchema,
  orderSchema,
  shipOrderInputSchema,
} from "../../../shared/orders.js";
import { quoteInputSchema, quoteSchema } from "../../../shared/pricing.js";
import { csvAnswer, sendCsv } from "../../lib/csv.js";
import { featureRoutes } from "../../lib/routes.js";
import { actorOf } from "../activity/index.js";
import { changeCatalog } from "../catalog/index.js";
import { orderCsv } from "./csv.js";
import type { ReleaseIntents } from "./expiry.js";
import { listOrders, listOrdersOf } from "./list.js";
import {
  getVisibleOrder,
  placeOrder,
  quoteOrder,
  removeOrder,
  requireVerifiedEmail,
  shipOrder,
} from "./service.js";

const idempotencyHeaders = z.object({
  "idempotency-key": z.string().min(1).max(200).optional(),
});

export interface OrderRoutesOptions {
  /** Cancels (or refunds) the payment intents of removed and expired orders: the payments feature's. */
  releaseIntents: ReleaseIntents;
}

export const orderRoutes = featureRoutes<OrderRoutesOptions>(
  ["orders"],
  async (app, route, { releaseIntents }) => {
    const rules = app.config.orders;

    app.post(
      "/api/orders",
      route.user({
        summary:
          "Book an order (stock taken atomically; Idempotency-Key supported). It holds its units until expiresAt (ORDER_HOLD_HOURS); 403 (code email-not-verified) until the account's email is verified; 409 when out of stock, when the customer's unpaid orders already hold ORDER_MAX_UNPAID orders or ORDER_MAX_UNPAID_UNITS units, or more than ORDER_MAX_SHARE_PERCENT of the product; 410 (code product-archived) for a product an admin archived; 429 over BOOKING_LIMIT_PER_HOUR bookings of the account or BOOKING_LIMIT_PER_ADDRESS_PER_HOUR from the client address",
        headers: idempotencyHeaders,
        body: orderInputSchema,
        response: { 201: orderSchema },
        problems: [403, 404, 409, 410, 422, 429],
        // Before the body is read: an account whose email is not verified books nothing (403, code
        // "email-not-verified"), so accounts that cost nothing cannot hold the stock (issue 28).
        hooks: [async (request) => requireVerifiedEmail(request.user)],
      }),
      async (request, reply) => {
        const booker = { user: request.user, address: request.ip };
        const { order, replayed } = await changeCatalog(app.catalogCache, (change) =>
          placeOrder(app.db, booker, request.body, change, rules, request.headers["idempotency-key"]),
        );
        if (replayed) reply.header("idempotent-replayed", "true");
        return reply.code(201).send(order);
      },
    );

    app.post(
      "/api/orders/quote",
      route.user({
        summary:
          "What booking this quantity (with this discount code) would cost now: the volume price, the discount, net, tax and gross in cents; takes nothing (422, code discount-code-refused, when the code does not apply)",
        body: quoteInputSchema,
        response: { 200: quoteSchema },
        problems: [404, 422, 429],
      }),
      async (request) => quoteOrder(app.db, request.user, request.body),
    );

    app.get(
      "/api/orders/mine",
      route.user({
        summary: "My orders, newest first, a page at a time (cursor paging)",
        querystring: myOrdersQuerySchema,
        response: { 200: orderPageSchema },
      }),
      async (request) => listOrdersOf(app.db, request.user.id, request.query),
    );

    route.adminList("/api/orders", orderListQuerySchema, orderPageSchema, listOrders, {
      summary: "All orders, newest first, filtered, a page at a time (cursor paging; admin)",
    });

    app.get(
      "/api/orders/export.csv",
      route.admin({
        summary: "Every order matching the filter as CSV, streamed (admin)",
        querystring: orderFilterSchema,
        produces: ["text/csv"],
        response: {
          200: csvAnswer("RFC 4180 CSV with a header row, newest first; formula-like cells start with '"),
        },
      }),
      async (request, reply) => {
        const csv = await orderCsv(app.reads.of(request), request.query);
        return sendCsv(reply, "orders", csv);
      },
    );

    app.get(
      "/api/orders/:id",
      route.user({
        summary: "One order (owner or admin)",
        params: orderIdParamsSchema,
        response: { 200: orderSchema },
        problems: [404],
      }),
      async (request) => getVisibleOrder(app.db, request.user, request.params.id),
    );

    app.delete(
      "/api/orders/:id",
      route.user({
        summary:
          "Remove an unpaid order, return its stock and cancel its payment intent at the provider (owner or admin)",
        params: orderIdParamsSchema,
        response: { 204: z.null() },
        problems: [404, 409],
      }),
      async (request, reply) => {
        await changeCatalog(app.catalogCache, (change) =>
          removeOrder(app.db, request.user, request.params.id, change, actorOf(request)),
        );
        await releaseIntents([request.params.id], "order_removed");
        return reply.code(204).send(null);
      },
    );

    app.post(
      "/api/orders/:id/ship",
      route.admin({
        summary:
          "Mark a paid order shipped, optionally with its carrier and tracking number; shipping again with the same details answers the order again, with others 409 (admin)",
        params: orderIdParamsSchema,
        // No body at all (null here) ships without a carrier, as before.
        body: shipOrderInputSchema.nullish(),
        response: { 200: orderSchema },
        problems: [404, 409],
      }),
      async (request) => shipOrder(app.db, request.params.id, request.body ?? {}, actorOf(request)),
    );
  },
);
