import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { orderIdParamsSchema, orderInputSchema, orderSchema } from "../../../shared/orders.js";
import { problemResponses } from "../../lib/schemas.js";
import {
  getVisibleOrder,
  listAllOrders,
  listOrdersOf,
  placeOrder,
  removeOrder,
  shipOrder,
} from "./service.js";

const idempotencyHeaders = z.object({
  "idempotency-key": z.string().min(1).max(200).optional(),
});

export const orderRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ["orders"];

  app.post(
    "/api/orders",
    {
      onRequest: app.requireUser,
      schema: {
        tags,
        summary: "Book an order (stock taken atomically; Idempotency-Key supported)",
        headers: idempotencyHeaders,
        body: orderInputSchema,
        response: { 201: orderSchema, ...problemResponses(400, 401, 404, 409, 422) },
      },
    },
    async (request, reply) => {
      const { order, replayed } = await placeOrder(
        app.db,
        request.user,
        request.body,
        request.headers["idempotency-key"],
      );
      if (replayed) reply.header("idempotent-replayed", "true");
      else if (order.productId) app.catalogCache.productChanged(order.productId);
      return reply.code(201).send(order);
    },
  );

  app.get(
    "/api/orders/mine",
    {
      onRequest: app.requireUser,
      schema: {
        tags,
        summary: "My orders, newest first",
        response: { 200: z.array(orderSchema), ...problemResponses(401) },
      },
    },
    async (request) => listOrdersOf(app.db, request.user.id),
  );

  app.get(
    "/api/orders",
    {
      onRequest: app.requireAdmin,
      schema: {
        tags,
        summary: "All orders (admin)",
        response: { 200: z.array(orderSchema), ...problemResponses(401, 403) },
      },
    },
    async () => listAllOrders(app.db),
  );

  app.get(
    "/api/orders/:id",
    {
      onRequest: app.requireUser,
      schema: {
        tags,
        summary: "One order (owner or admin)",
        params: orderIdParamsSchema,
        response: { 200: orderSchema, ...problemResponses(400, 401, 404) },
      },
    },
    async (request) => getVisibleOrder(app.db, request.user, request.params.id),
  );

  app.delete(
    "/api/orders/:id",
    {
      onRequest: app.requireUser,
      schema: {
        tags,
        summary: "Remove an unpaid order and return its stock (owner or admin)",
        params: orderIdParamsSchema,
        response: { 204: z.null(), ...problemResponses(400, 401, 404, 409) },
      },
    },
    async (request, reply) => {
      const restocked = await removeOrder(app.db, request.user, request.params.id);
      if (restocked) app.catalogCache.productChanged(restocked);
      return reply.code(204).send(null);
    },
  );

  app.post(
    "/api/orders/:id/ship",
    {
      onRequest: app.requireAdmin,
      schema: {
        tags,
        summary: "Mark a paid order shipped; idempotent (admin)",
        params: orderIdParamsSchema,
        response: { 200: orderSchema, ...problemResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => shipOrder(app.db, request.params.id),
  );
};
