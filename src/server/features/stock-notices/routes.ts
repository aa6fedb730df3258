import { z } from "zod";
import { stockNoticeMessages as m } from "../../../shared/messages/stock-notices.js";
import {
  STOCK_NOTICE_DAYS,
  stockNoticeIdParamsSchema,
  stockNoticeInputSchema,
  stockNoticeListQuerySchema,
  stockNoticePageSchema,
  stockNoticeSchema,
  stockNoticeUnsubscribeSchema,
} from "../../../shared/stock-notices.js";
import { badRequest } from "../../lib/problem.js";
import { featureRoutes } from "../../lib/routes.js";
import { cancelNotice, listNotices, subscribe, unsubscribe } from "./service.js";
import { validUnsubscribeToken } from "./token.js";

export const stockNoticeRoutes = featureRoutes(["stock notices"], async (app, route) => {
  app.post(
    "/api/stock-notices",
    route.user({
      summary: "Ask to be mailed when a product that cannot be booked is back in stock",
      description: `One per customer and product (asking again answers the same one); 409 when the product can be booked now, 410 when it is archived (no longer sold). It ends with its mail, after ${STOCK_NOTICE_DAYS} days, or when cancelled.`,
      body: stockNoticeInputSchema,
      response: { 201: stockNoticeSchema },
      problems: [404, 409, 410],
    }),
    async (request, reply) =>
      reply.code(201).send(await subscribe(app.db, request.user.id, request.body.productId)),
  );

  app.get(
    "/api/stock-notices",
    route.user({
      summary: "My open back-in-stock subscriptions, newest first (cursor paging)",
      querystring: stockNoticeListQuerySchema,
      response: { 200: stockNoticePageSchema },
    }),
    async (request) => listNotices(app.db, request.user.id, request.query),
  );

  app.delete(
    "/api/stock-notices/:id",
    route.user({
      summary: "Cancel my back-in-stock subscription",
      params: stockNoticeIdParamsSchema,
      response: { 204: z.null() },
      problems: [404],
    }),
    async (request, reply) => {
      await cancelNotice(app.db, request.user.id, request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    "/api/stock-notices/unsubscribe",
    route.anyone({
      summary: "End a back-in-stock subscription by the signed link of its mail (no sign-in)",
      body: stockNoticeUnsubscribeSchema,
      response: { 204: z.null() },
    }),
    async (request, reply) => {
      const { id, token } = request.body;
      if (!validUnsubscribeToken(app.config.authSecret, id, token)) throw badRequest(m.badLink);
      await unsubscribe(app.db, id);
      return reply.code(204).send(null);
    },
  );
});
