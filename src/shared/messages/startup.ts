/** Printed by the server at start. */
export const startupMessages = {
  stripeKeysMissing: "is stripe, but STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY are not both set",
  sandboxInProduction:
    "production takes real payments: set STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY, or PAYMENTS=sandbox to run with test payments only (every page then says so)",
  adminNotProved: (email: string) =>
    `ADMIN_EMAILS lists ${email}, whose account has no role admin: it gets it when its owner follows the link that \`npm run admin -- grant ${email}\` sends.`,
  trustProxyAny:
    "true would believe any client's X-Forwarded-For (its own address then comes from the client): write the number of proxies in front of the shop (1 behind one balancer) or the balancer's addresses, e.g. TRUST_PROXY=10.0.0.5 or 10.0.0.0/24",
  trustProxyHops:
    "is more than 10 proxies: write the number of proxies in front of the shop, or their addresses",
  trustProxyNotAddress: (entries: string[]) =>
    `takes a number of proxies or a comma-separated list of IP addresses and networks (10.0.0.5, 10.0.0.0/24); not ${entries.map((e) => JSON.stringify(e)).join(", ")}`,
  loopbackOnly:
    "Listening on 127.0.0.1 only, because demo accounts with published passwords exist; set HOST to listen elsewhere.",
} as const;
