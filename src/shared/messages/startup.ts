/** Printed by the server at start. */
export const startupMessages = {
  stripeKeysMissing: "is stripe, but STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY are not both set",
  sandboxInProduction:
    "production takes real payments: set STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY, or PAYMENTS=sandbox to run with test payments only (every page then says so)",
  adminNotProved: (email: string) =>
    `ADMIN_EMAILS lists ${email}, whose account has no role admin: it gets it when its owner follows the link that \`npm run admin -- grant ${email}\` sends.`,
  loopbackOnly:
    "Listening on 127.0.0.1 only, because demo accounts with published passwords exist; set HOST to listen elsewhere.",
} as const;
