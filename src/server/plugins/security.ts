import helmet from "@fastify/helmet";
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import type { Config } from "../config.js";
import { forbidden, titleFor } from "../lib/problem.js";
import { sendProblem } from "./errors.js";

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

  // A cross-site page can send a "simple" request without asking first only as a form encoding or
  // text/plain; with no text/plain parser either, every mutating route takes JSON or multipart only.
  app.removeContentTypeParser("text/plain");

  app.addHook("onRequest", async (request) => {
    // The matched route before the raw URL: the router decodes the path, so /%61pi/profile is
    // /api/profile too, and a check on request.url alone would let it through.
    const route = request.routeOptions.url ?? request.url;
    if (!MUTATING.has(request.method) || !route.startsWith("/api/")) return;
    if (ORIGIN_EXEMPT.has(route)) return;
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

/**
 * Fastify's answer to a URL it cannot route (bad percent-encoding, a path parameter over
 * maxParamLength): no hook runs for it, so helmet's headers are set here. The answer is never a
 * page, so its policy allows nothing at all. The path is not echoed back.
 */
export function frameworkErrors(config: Config) {
  return (error: FastifyError, _request: FastifyRequest, reply: FastifyReply) => {
    reply.headers({
      "content-security-policy":
        "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'; object-src 'none'",
      "x-content-type-options": "nosniff",
      "referrer-policy": "no-referrer",
      "x-frame-options": "DENY",
      ...(config.secureCookies ? { "strict-transport-security": "max-age=31536000; includeSubDomains" } : {}),
    });
    const status = error.statusCode ?? 400;
    const detail =
      status < 500 ? "This address is not valid." : "Something went wrong on our side. Please try again.";
    return sendProblem(reply, { status, title: titleFor(status), detail });
  };
}
