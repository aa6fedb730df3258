import { randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";

/** An id the balancer may pass in X-Request-Id: short, and nothing that could forge a log line. */
const PASSED_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;

/** Where a request keeps its id: a property of its own (a WeakMap entry per request weighed on the GC). */
const ID = Symbol("requestId");
type WithId = IncomingMessage & { [ID]?: string };

/**
 * The id of a request, given once and kept: the one in its X-Request-Id header when the shop trusts
 * the proxy in front of it (TRUST_PROXY) and the id is well-formed, otherwise a new UUID. Asked for
 * by the early answers (plugins/early-answers.ts) and by Fastify (genReqId), which then agree. It is
 * answered in the X-Request-Id header, written in the request's access line, and carried in every
 * problem+json answer, so a customer's error can be found in the logs.
 */
export function requestIdOf(req: WithId, trustPassed: boolean): string {
  let id = req[ID];
  if (id === undefined) {
    const passed = trustPassed ? req.headers["x-request-id"] : undefined;
    id = typeof passed === "string" && PASSED_ID.test(passed) ? passed : randomUUID();
    req[ID] = id;
  }
  return id;
}
