import http, { type IncomingMessage, type ServerResponse } from "node:http";
import type { FastifyServerOptions } from "fastify";
import { requestIdOf } from "../lib/request-id.js";

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
 * starts closing, every request goes to Fastify, which answers 503 while it drains. Every answer,
 * early or not, carries the request's id (lib/request-id.ts) in X-Request-Id.
 */
export function earlyAnsweringServer(
  early: readonly EarlyAnswer[],
  isClosing: () => boolean,
  trustPassedIds: boolean,
) {
  return (handler: http.RequestListener, options: FastifyServerOptions): http.Server => {
    const server = http.createServer((req, res) => {
      res.setHeader("x-request-id", requestIdOf(req, trustPassedIds));
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
