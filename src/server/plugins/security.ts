import type { IncomingMessage, ServerResponse } from "node:http";
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from "fastify";
import fp from "fastify-plugin";
import helmet from "helmet";
import type { Config } from "../config.js";
import { forbidden, HttpProblem, titleFor } from "../lib/problem.js";
import { sendError } from "./errors.js";

type HelmetOptions = Parameters<typeof helmet>[0];

declare module "fastify" {
  interface FastifyInstance {
    /** The security headers every answer carries, for answers sent without Fastify's hooks. */
    securityHeaders: Readonly<Record<string, string>>;
  }
}

const MUTATING = new Set(["POST", "PUT", "PATCH", "DELETE"]);
/**
 * Authenticated by a secret they carry instead of by origin and cookie: the payment provider's
 * webhook (its signature), and the one-click unsubscribe of the optional mails (RFC 8058), which a
 * mail client or provider POSTs from anywhere, with the token the shop signed in the URL
 * (features/mail-preferences). Neither reads a session, so a forged request gains nothing from one.
 */
const ORIGIN_EXEMPT = new Set(["/api/payments/webhook", "/api/mail/unsubscribe"]);

/**
 * The headers helmet sets for these options. They depend on the configuration only (no nonces, no
 * per-request directives), so they are worked out once at start-up rather than on every request,
 * which is what building helmet's middleware for each request (as @fastify/helmet does) costs.
 */
function helmetHeaders(options: HelmetOptions): Readonly<Record<string, string>> {
  const headers: Record<string, string> = {};
  const collector = {
    setHeader(name: string, value: string | number) {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  let failure: unknown;
  helmet(options)({} as IncomingMessage, collector as unknown as ServerResponse, (error?: unknown) => {
    failure = error;
  });
  if (failure) throw failure;
  return Object.freeze(headers);
}

function shopHelmetOptions(config: Config): HelmetOptions {
  const stripeSources = config.stripe ? ["https://js.stripe.com"] : [];
  return {
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
  };
}

/** Security headers with a strict CSP, and the same-origin rule for every state-changing request. */
async function security(app: FastifyInstance, opts: { config: Config }) {
  const { config } = opts;
  const publicOrigin = new URL(config.publicUrl).origin;
  const headers = helmetHeaders(shopHelmetOptions(config));
  app.decorate("securityHeaders", headers);
  app.addHook("onRequest", (_request, reply, done) => {
    reply.headers(headers);
    done();
  });
  // No answer is kept by a browser or a shared cache unless its route says how (the catalog, images,
  // pages and assets do): what depends on who is signed in (session, orders, profile, the admin's
  // lists, better-auth's answers) is then never stored, whichever route a future change adds.
  app.addHook("onSend", (_request, reply, payload, done) => {
    if (!reply.hasHeader("cache-control")) reply.header("cache-control", "no-store");
    done(null, payload);
  });

  // A cross-site page can send a "simple" request without asking first only as a form encoding or
  // text/plain; with no text/plain parser either, every mutating route takes JSON or multipart only.
  app.removeContentTypeParser("text/plain");

  const sameOrigin = async (request: FastifyRequest) => {
    if (!MUTATING.has(request.method)) return;
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
  };
  // Attached to the routes that can change state, so reads pay nothing for it. Per route rather
  // than by request.url: the router decodes the path, so /%61pi/profile reaches /api/profile too.
  app.addHook("onRoute", (route: RouteOptions) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (!route.url.startsWith("/api/") || ORIGIN_EXEMPT.has(route.url)) return;
    if (!methods.some((method) => MUTATING.has(method))) return;
    const own =
      route.onRequest === undefined
        ? []
        : Array.isArray(route.onRequest)
          ? route.onRequest
          : [route.onRequest];
    // First, so a forged request is refused before a session is even looked up.
    route.onRequest = [sameOrigin, ...own] as RouteOptions["onRequest"];
  });
}

export default fp(security, { name: "security" });

/**
 * Fastify's answer to a URL it cannot route (bad percent-encoding, a path parameter over
 * maxParamLength): no hook runs for it, so helmet's headers are set here. The answer is never a
 * page, so its policy allows nothing at all. The path is not echoed back.
 */
export function frameworkErrors(config: Config) {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    reply.headers({
      "content-security-policy":
        "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'; object-src 'none'",
      "x-content-type-options": "nosniff",
      "referrer-policy": "no-referrer",
      "x-frame-options": "DENY",
      "cache-control": "no-store",
      ...(config.secureCookies ? { "strict-transport-security": "max-age=31536000; includeSubDomains" } : {}),
    });
    const status = error.statusCode ?? 400;
    const problem =
      status < 500 ? new HttpProblem(status, titleFor(status), "This address is not valid.") : error;
    return sendError(problem, request, reply);
  };
}
