import { z } from "zod";
import { paymentMessages } from "../../../shared/messages/payments.js";
import { orderIdParamsSchema, orderSchema } from "../../../shared/orders.js";
import {
  paymentIntentSchema,
  payOrderInputSchema,
  sandboxConfirmInputSchema,
  sandboxConfirmResultSchema,
} from "../../../shared/payments.js";
import { notFound } from "../../lib/problem.js";
import { featureRoutes, routeOptions } from "../../lib/routes.js";
import { actorOf } from "../activity/index.js";
import { changeCatalog } from "../catalog/index.js";
import type { PaymentProvider } from "./provider.js";
import { SandboxProvider } from "./sandbox.js";
import {
  applyWebhookEvent,
  confirmSandboxPayment,
  createPaymentIntent,
  payOrder,
  refundOrder,
} from "./service.js";

/** Its own scope: the signature covers the exact bytes, so only this route keeps JSON unparsed. */
const webhookRoutes = featureRoutes<{ provider: PaymentProvider }>(
  ["payments"],
  async (app, route, { provider }) => {
    app.removeContentTypeParser("application/json");
    app.addContentTypeParser("application/json", { parseAs: "buffer" }, (_request, body, done) => {
      done(null, body);
    });
    app.post(
      "/api/payments/webhook",
      route.anyone({
        summary:
          "Payment provider events, verified by signature (Stripe only): payment_intent.* settle an order's payment, charge.refunded and refund.* record refunds; each event applied once",
        headers: z.object({ "stripe-signature": z.string().max(4096).optional() }),
        response: { 200: z.object({ received: z.literal(true) }) },
        problems: [404],
      }),
      async (request) => {
        const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        const event = provider.verifyWebhook(raw, request.headers["stripe-signature"]);
        await changeCatalog(app.catalogCache, (change) =>
          applyWebhookEvent(app.db, provider, request.log, event, change),
        );
        return { received: true as const };
      },
    );
  },
);

export const paymentRoutes = featureRoutes<{ provider: PaymentProvider }>(
  ["payments"],
  async (app, route, { provider }) => {
    const orderRoute = routeOptions(app, ["orders"]);

    app.post(
      "/api/orders/:id/payment-intent",
      route.user({
        summary: "The payment intent for the order's own amount (owner)",
        params: orderIdParamsSchema,
        response: { 200: paymentIntentSchema },
        problems: [404, 409],
      }),
      async (request) => createPaymentIntent(app.db, provider, request.user, request.params.id),
    );

    app.post(
      "/api/orders/:id/pay",
      route.user({
        summary: "Mark the order paid once the provider confirms the intent (owner; idempotent)",
        params: orderIdParamsSchema,
        body: payOrderInputSchema,
        response: { 200: orderSchema },
        problems: [402, 404, 409],
      }),
      async (request) =>
        payOrder(app.db, provider, request.user, request.params.id, request.body.transactionId),
    );

    app.post(
      "/api/orders/:id/refund",
      orderRoute.stepUp({
        summary:
          "Refund a paid, not shipped order in full through the payment provider; its units go back to stock. Refunding a refunded order answers it again (admin)",
        params: orderIdParamsSchema,
        response: { 200: orderSchema },
        problems: [404, 409, 502],
      }),
      async (request) =>
        changeCatalog(app.catalogCache, (change) =>
          refundOrder(app.db, provider, request.params.id, change, actorOf(request)),
        ),
    );

    app.post(
      "/api/payments/sandbox/confirm",
      route.user({
        summary: "Confirm a sandbox payment intent with a card (a refused card answers 402)",
        body: sandboxConfirmInputSchema,
        response: { 200: sandboxConfirmResultSchema },
        problems: [402, 404, 409],
      }),
      async (request) => {
        if (!(provider instanceof SandboxProvider)) throw notFound(paymentMessages.unknownIntent);
        return confirmSandboxPayment(app.db, provider, request.user, request.body);
      },
    );

    await app.register(webhookRoutes, { provider });
  },
);
