import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
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
import { problemResponses } from "../../lib/schemas.js";
import type { PaymentProvider } from "./provider.js";
import { SandboxProvider } from "./sandbox.js";
import { applyWebhookEvent, confirmSandboxPayment, createPaymentIntent, payOrder } from "./service.js";
import { StripeProvider } from "./stripe.js";

/** Its own scope: the signature covers the exact bytes, so only this route keeps JSON unparsed. */
const webhookRoutes: FastifyPluginAsyncZod<{ provider: PaymentProvider }> = async (app, { provider }) => {
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "buffer" }, (_request, body, done) => {
    done(null, body);
  });
  app.post(
    "/api/payments/webhook",
    {
      schema: {
        tags: ["payments"],
        summary: "Payment provider events, verified by signature (Stripe only)",
        headers: z.object({ "stripe-signature": z.string().max(4096).optional() }),
        response: { 200: z.object({ received: z.literal(true) }), ...problemResponses(400, 404) },
      },
    },
    async (request) => {
      const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const event = provider.verifyWebhook(raw, request.headers["stripe-signature"]);
      await applyWebhookEvent(app.db, provider, request.log, event);
      return { received: true as const };
    },
  );
};

export const paymentRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ["payments"];
  // Stripe when its keys are configured, otherwise the built-in sandbox.
  const provider: PaymentProvider = app.config.stripe
    ? new StripeProvider(app.config.stripe)
    : new SandboxProvider(app.db);

  app.post(
    "/api/orders/:id/payment-intent",
    {
      onRequest: app.requireUser,
      schema: {
        tags,
        summary: "The payment intent for the order's own amount (owner)",
        params: orderIdParamsSchema,
        response: { 200: paymentIntentSchema, ...problemResponses(400, 401, 404, 409) },
      },
    },
    async (request) => createPaymentIntent(app.db, provider, request.user, request.params.id),
  );

  app.post(
    "/api/orders/:id/pay",
    {
      onRequest: app.requireUser,
      schema: {
        tags,
        summary: "Mark the order paid once the provider confirms the intent (owner; idempotent)",
        params: orderIdParamsSchema,
        body: payOrderInputSchema,
        response: { 200: orderSchema, ...problemResponses(400, 401, 402, 404, 409) },
      },
    },
    async (request) =>
      payOrder(app.db, provider, request.log, request.user, request.params.id, request.body.transactionId),
  );

  app.post(
    "/api/payments/sandbox/confirm",
    {
      onRequest: app.requireUser,
      schema: {
        tags,
        summary: "Confirm a sandbox payment intent with a card (a refused card answers 402)",
        body: sandboxConfirmInputSchema,
        response: { 200: sandboxConfirmResultSchema, ...problemResponses(400, 401, 402, 404, 409) },
      },
    },
    async (request) => {
      if (!(provider instanceof SandboxProvider)) throw notFound(paymentMessages.unknownIntent);
      return confirmSandboxPayment(app.db, provider, request.user, request.body);
    },
  );

  await app.register(webhookRoutes, { provider });
};
