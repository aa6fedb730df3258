import http, { type IncomingMessage, type ServerResponse } from "node:http";
import type { FastifyInstance, FastifyServerOptions } from "fastify";
import { logEarlyAnswer, logsAccess, REQUEST_ID_HEADER } from "../lib/access-log.js";
import { matchesEtag } from "../lib/etag.js";
import { earlyAnswerCount } from "../lib/metrics.js";
import { rawHeader } from "../lib/raw-header.js";
import { freshRequestId } from "../lib/request-id.js";
import { nameRequest, tagRequest, tracedListener } from "../lib/tracing.js";

// The shop's one early path (docs/decisions/early-catalog-answers.md): the server that asks early
// answers first, and the one kind of early answer there is, a cached answer by its exact URL. What
// an answer carries besides its bytes comes from the functions Fastify's path calls too: the
// security headers (plugins/security.ts, app.securityHeaders), the request id and its header
// (lib/request-id.ts, lib/access-log.ts), the representation's cache headers (the route's own
// function, handed in) and the access line (lib/access-log.ts).

/**
 * Answers a request on node:http before Fastify sees it, from what the app already knows (a cached
 * answer for a URL Fastify has routed and validated before), or returns false to let Fastify route
 * it as usual. Only for answers that need no session, body, validation or database: Fastify's
 * request and reply objects, its hooks and its child logger are most of what such an answer costs.
 */
export type EarlyAnswer = (req: IncomingMessage, res: ServerResponse) => boolean;

/** What the server asks of the app on every request (app.ts keeps it). */
export interface ServerState {
  /** The instance is stopping (SIGTERM, main.ts): every answer from now on closes its connection. */
  draining: boolean;
  /** The app is closing: Fastify answers everything (a 503 to what arrives on a kept-alive connection). */
  closing: boolean;
}

/**
 * The shop's HTTP server (Fastify's `serverFactory`): node:http with Fastify's own server settings,
 * asking the early answers registered so far before handing a request to Fastify. Once the app
 * starts closing, every request goes to Fastify, which answers 503 while it drains. While the
 * instance drains, every answer, early or not, says `Connection: close` and its socket closes after
 * it (Node writes the header when the response is not to be kept alive): a balancer's kept-alive
 * connection would otherwise hold the closing server open until its keep-alive time-out, past the
 * stop's forced limit. An early answer puts the request's id (lib/request-id.ts) in its own headers:
 * a header set here with setHeader would send Node's writeHead down its slow path, one setHeader per
 * prepared header (a third of the catalog's throughput in `npm run bench`).
 */
export function earlyAnsweringServer(early: readonly EarlyAnswer[], state: Readonly<ServerState>) {
  return (handler: http.RequestListener, options: FastifyServerOptions): http.Server => {
    // Each request in a span of its own when the shop records traces (lib/tracing.ts).
    const server = http.createServer(
      tracedListener((req, res) => {
        if (state.draining) res.shouldKeepAlive = false;
        if (!state.closing) for (const answer of early) if (answer(req, res)) return;
        handler(req, res);
      }),
    );
    // What Fastify sets on the server it makes itself (fastify/lib/server.js).
    if (options.keepAliveTimeout) server.keepAliveTimeout = options.keepAliveTimeout;
    if (options.requestTimeout) server.requestTimeout = options.requestTimeout;
    server.setTimeout(options.connectionTimeout ?? 0);
    if (options.maxRequestsPerSocket) server.maxRequestsPerSocket = options.maxRequestsPerSocket;
    return server;
  };
}

/** A cached answer as one representation: its bytes, its strong ETag, and its content coding if any. */
export interface Representation {
  body: Buffer;
  etag: string;
  coding?: "br" | "gzip";
}

/**
 * Where a route keeps its cached answers: `find` looks up what it cached for a URL it validated
 * before (undefined for any other URL), `represent` gives that answer as the request accepts it,
 * and `cacheHeaders` the headers of a representation, the function its Fastify handler and
 * onRequest hook set them with (ETag, Cache-Control, Vary, Content-Encoding).
 */
export interface CachedByUrl<T> {
  find(url: string): T | undefined;
  represent(found: T, acceptEncoding: string | undefined): Representation;
  cacheHeaders(sent: Representation): Record<string, string>;
}

type PreparedHeaders = { ok: Record<string, string | number>; notModified: Record<string, string> };
const MAX_PREPARED = 2_000;
/** The type of every cached answer, early or through Fastify (the route's reply sends it too). */
export const CACHED_ANSWER_TYPE = "application/json; charset=utf-8";

/**
 * Answers a GET of a URL the route has cached, early, with the route's own bytes and headers.
 * A request of any other URL goes on to Fastify having cost a method check and a lookup. Counted in gearhouse_early_answers_total (not timed),
 * logged with the access line Fastify writes. Does nothing when early answers are off
 * (EARLY_ANSWERS=false): the route's onRequest hook then gives the same answer through Fastify.
 */
export function answerCachedEarly<T>(
  app: FastifyInstance,
  route: string,
  { find, represent, cacheHeaders }: CachedByUrl<T>,
): void {
  // Every header of a 200 and of a 304 for one representation, made once (the ETag names it), by
  // this app: another app in the process may send other security headers.
  const prepared = new Map<string, PreparedHeaders>();
  const headersFor = (sent: Representation) => {
    let headers = prepared.get(sent.etag);
    if (!headers) {
      const { "content-encoding": _coding, ...validators } = cacheHeaders(sent);
      headers = {
        ok: {
          ...app.securityHeaders,
          ...cacheHeaders(sent),
          "content-type": CACHED_ANSWER_TYPE,
          "content-length": sent.body.length,
        },
        // A 304 has no body, so no coding (as the route's reply sends it).
        notModified: { ...app.securityHeaders, ...validators },
      };
      if (prepared.size >= MAX_PREPARED) prepared.clear();
      prepared.set(sent.etag, headers);
    }
    return headers;
  };
  const counted = earlyAnswerCount(route);
  app.answerEarly((req, res) => {
    if (req.method !== "GET" || req.url === undefined) return false;
    const found = find(req.url);
    if (found === undefined) return false;
    const started = logsAccess(app.log) ? performance.now() : undefined;
    const sent = represent(found, rawHeader(req, "accept-encoding"));
    const headers = headersFor(sent);
    const reqId = freshRequestId(req, app.trustedProxy);
    tagRequest(reqId);
    nameRequest(req.method, route);
    // The prepared headers are shared by every answer of this representation; each takes its own
    // request id in them just before writeHead, which copies them out at once.
    if (matchesEtag(rawHeader(req, "if-none-match"), sent.etag)) {
      headers.notModified[REQUEST_ID_HEADER] = reqId;
      res.writeHead(304, headers.notModified).end();
      counted.notModified++;
    } else {
      headers.ok[REQUEST_ID_HEADER] = reqId;
      res.writeHead(200, headers.ok).end(sent.body);
      counted.ok++;
    }
    // No session is read for a cached answer: it is the same for everyone.
    if (started !== undefined)
      logEarlyAnswer(app.log, reqId, {
        method: "GET",
        route,
        status: res.statusCode,
        ms: performance.now() - started,
        userId: null,
      });
    return true;
  });
}
