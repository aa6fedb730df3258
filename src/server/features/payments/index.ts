/**
 * The payments feature's public module (the layer check, .dependency-cruiser.cjs, refuses any other
 * path into this folder): the provider app.ts makes once and hands to the payment routes, and what
 * the orders feature is handed to cancel the intents of removed and expired orders.
 */
import type { Config } from "../../config.js";
import type { Db } from "../../db/client.js";
import type { PaymentProvider } from "./provider.js";
import { SandboxProvider } from "./sandbox.js";
import { StripeProvider } from "./stripe.js";

export type { PaymentProvider } from "./provider.js";
export { intentReleaser } from "./service.js";

/** Stripe when its keys are configured, otherwise the built-in sandbox. */
export function createPaymentProvider(config: Config, db: Db): PaymentProvider {
  return config.stripe ? new StripeProvider(config.stripe) : new SandboxProvider(db);
}
