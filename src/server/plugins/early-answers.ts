import http, { type IncomingMessage, type ServerResponse } from "node:http";
import type { FastifyServerOptions } from "fastify";

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
    const server = http.createServer((req, res) => {
      if (state.draining) res.shouldKeepAlive = false;
      if (!state.closing) for (const answer of early) if (answer(req, res)) return;
      handler(req, res);
    });
    // What Fastify sets on the server it makes itself (fastify/lib/server.js).
    if (options.keepAliveTimeout) server.keepAliveTimeout = options.keepAliveTimeout;
    if (options.requestTimeout) server.requestTimeout = options.requestTimeout;
    server.setTimeout(options.connectionTimeout ?? 0);
    if (options.maxRequestsPerSocket) server.maxRequestsPerSocket = options.maxRequestsPerSocket;
    return server;
  };
}
