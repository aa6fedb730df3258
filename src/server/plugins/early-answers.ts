import http, { type IncomingMessage, type ServerResponse } from "node:http";
import type { FastifyServerOptions } from "fastify";

/**
 * Answers a request on node:http before Fastify sees it, from what the app already knows (a cached
 * answer for a URL Fastify has routed and validated before), or returns false to let Fastify route
 * it as usual. Only for answers that need no session, body, validation or database: Fastify's
 * request and reply objects, its hooks and its child logger are most of what such an answer costs.
 */
export type EarlyAnswer = (req: IncomingMessage, res: ServerResponse) => boolean;

/**
 * The shop's HTTP server (Fastify's `serverFactory`): node:http with Fastify's own server settings,
 * asking the early answers registered so far before handing a request to Fastify. Once the app
 * starts closing, every request goes to Fastify, which answers 503 while it drains. An early answer
 * puts the request's id (lib/request-id.ts) in its own headers: a header set here with setHeader
 * would send Node's writeHead down its slow path, one setHeader per prepared header (a third of
 * the catalog's throughput in `npm run bench`).
 */
export function earlyAnsweringServer(early: readonly EarlyAnswer[], isClosing: () => boolean) {
  return (handler: http.RequestListener, options: FastifyServerOptions): http.Server => {
    const server = http.createServer((req, res) => {
      if (!isClosing()) for (const answer of early) if (answer(req, res)) return;
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
