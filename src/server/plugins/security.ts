import helmet from "@fastify/helmet";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import type { Config } from "../config.js";
import { forbidden } from "../lib/problem.js";

const MUTATING = new Set(["POST", "PUT", "PATCH", "DELETE"]);
/** Called by the payment provider's servers, authenticated by signature instead of origin. */
const ORIGIN_EXEMPT = new Set(["/api/payments/webhook"]);

/** Security headers with a strict CSP, and the same-origin rule for every state-changing request. */
async function security(app: FastifyInstance, opts: { config: Config }) {
  const { config } = opts;
  const publicOrigin = new URL(config.publicUrl).origin;
  const stripeSources = config.stripe ? ["https://js.stripe.com"] : [];
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", ...stripeSources],
        // Toast and carousel libraries set inline styles at run time; scripts stay strict.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", "data:", "blob:"],
        mediaSrc: ["'self'"],
        fontSrc: ["'self'"],
        connectSrc: ["'self'", ...(config.stripe ? ["https://api.stripe.com"] : [])],
        // Stripe.js mounts its card fields and 3-D Secure challenges in frames from these hosts.
        frameSrc: config.stripe ? [...stripeSources, "https://hooks.stripe.com"] : ["'none'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        ...(config.secureCookies ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    hsts: config.secureCookies ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    referrerPolicy: { policy: "strict-origin-when-cross-origin" },
    crossOriginEmbedderPolicy: false,
  });

  app.addHook("onRequest", async (request) => {
    if (!MUTATING.has(request.method) || !request.url.startsWith("/api/")) return;
    if (ORIGIN_EXEMPT.has(request.url.split("?")[0] ?? "")) return;
    const origin = request.headers.origin;
    if (origin) {
      const ownOrigin = `${request.protocol}://${request.host}`;
      if (origin !== publicOrigin && origin !== ownOrigin)
        throw forbidden("Cross-origin requests are not allowed.");
      return;
    }
    // Browsers always send Origin on cross-site writes; Sec-Fetch-Site covers the rest.
    const site = request.headers["sec-fetch-site"];
    if (site && site !== "same-origin" && site !== "none")
      throw forbidden("Cross-origin requests are not allowed.");
  });
}

export default fp(security, { name: "security" });
