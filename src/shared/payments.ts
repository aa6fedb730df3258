import { z } from "zod";

/** Card payments (docs/product.md, API). Amounts here are in cents, as payment providers want them. */

const PAYMENT_PROVIDERS = ["sandbox", "stripe"] as const;
export type PaymentProviderName = (typeof PAYMENT_PROVIDERS)[number];

/** POST /api/orders/:id/payment-intent → the intent for the order's own amount. */
export const paymentIntentSchema = z.object({
  provider: z.enum(PAYMENT_PROVIDERS),
  clientSecret: z.string(),
  /** The order's total in cents. */
  amount: z.number().int(),
  currency: z.literal("usd"),
  /** Stripe's publishable key for Stripe.js; null for the sandbox. */
  publishableKey: z.string().nullable(),
});
export type PaymentIntent = z.infer<typeof paymentIntentSchema>;

/** POST /api/orders/:id/pay: the provider's payment intent id, checked with the provider. */
export const payOrderInputSchema = z.object({
  transactionId: z.string().trim().min(1).max(255),
});

/**
 * POST /api/payments/sandbox/confirm. Shapes only: whether the card number, expiry and CVC are
 * valid is the provider's judgement, answered as 402 with the provider's message.
 */
export const sandboxConfirmInputSchema = z.object({
  clientSecret: z.string().min(1).max(255),
  card: z.object({
    number: z.string().max(40),
    expMonth: z.number().int(),
    expYear: z.number().int(),
    cvc: z.string().max(10),
  }),
  billing: z.object({
    name: z.string().max(200),
    email: z.string().max(320),
  }),
});
export type SandboxConfirmInput = z.infer<typeof sandboxConfirmInputSchema>;

const PAYMENT_INTENT_STATUSES = ["requires_payment_method", "processing", "succeeded", "canceled"] as const;

export const sandboxConfirmResultSchema = z.object({
  paymentIntent: z.object({ id: z.string(), status: z.enum(PAYMENT_INTENT_STATUSES) }),
});
export type SandboxConfirmResult = z.infer<typeof sandboxConfirmResultSchema>;
