import { randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { rawHeader } from "./raw-header.js";

/** An id the balancer may pass in X-Request-Id: short, and nothing that could forge a log line. */
const PASSED_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;

/** Where a request keeps its id: a property of its own (a WeakMap entry per request weighed on the GC). */
const ID = Symbol("requestId");
type WithId = IncomingMessage & { [ID]?: string };

/**
 * A new id for a request: the one in its X-Request-Id header when the shop trusts the proxy in front
 * of it (TRUST_PROXY) and the id is well-formed, otherwise a new UUID. An early answer
 * (plugins/early-answers.ts), which ends its request there, takes it as it is: keeping it on the
 * request would add a property to each IncomingMessage on the catalog's hottest path.
 */
export function freshRequestId(req: IncomingMessage, trustPassed: boolean): string {
  const passed = trustPassed ? rawHeader(req, "x-request-id") : undefined;
  return passed !== undefined && PASSED_ID.test(passed) ? passed : randomUUID();
}

/**
 * The id of a request, given once (freshRequestId) and kept, for Fastify (genReqId) and whatever
 * asks after it. It is answered in the X-Request-Id header, written in the request's access line,
 * and carried in every problem+json answer, so a customer's error can be found in the logs.
 */
export function requestIdOf(req: WithId, trustPassed: boolean): string {
  let id = req[ID];
  if (id === undefined) {
    id = freshRequestId(req, trustPassed);
    req[ID] = id;
  }
  return id;
}
