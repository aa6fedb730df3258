import { randomFillSync } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { rawHeader } from "./raw-header.js";
import type { ProxyTrust } from "./trusted-proxy.js";

/** An id the balancer may pass in X-Request-Id: short, and nothing that could forge a log line. */
const PASSED_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;

/** Where a request keeps its id: a property of its own (a WeakMap entry per request weighed on the GC). */
const ID = Symbol("requestId");
type WithId = IncomingMessage & { [ID]?: string };

/** Random bits in an id: as unguessable and as unlikely to repeat as a UUID's 122. */
const ID_BYTES = 16;
/** Drawn from the system's generator this many at a time. */
const POOL_BYTES = 4096 * ID_BYTES;
const pool = Buffer.allocUnsafeSlow(POOL_BYTES);
let drawn = POOL_BYTES;

/**
 * 128 random bits in 32 hex digits. Not a UUID: randomUUID drew 2 KB from the system every 128 ids
 * and built its string from pieces, which every header check then copied flat; the catalog's early
 * answers, tens of thousands a second, spent about 0.7 µs of their 20 on it (`npm run bench`,
 * throughput). This draws 64 KB at a time and makes the string in one step.
 */
function newId(): string {
  if (drawn === POOL_BYTES) {
    randomFillSync(pool);
    drawn = 0;
  }
  const id = pool.toString("hex", drawn, drawn + ID_BYTES);
  drawn += ID_BYTES;
  return id;
}

/**
 * A new id for a request: the one in its X-Request-Id header when it comes from a proxy the shop
 * trusts (TRUST_PROXY: the socket's peer is one) and the id is well-formed, otherwise 128 new random
 * bits. A client reaching the shop past the balancer cannot choose the id its lines are logged
 * under. An early answer (plugins/early-answers.ts), which ends its request there, takes it as it
 * is: keeping it on the request would add a property to each IncomingMessage on the catalog's
 * hottest path.
 */
export function freshRequestId(req: IncomingMessage, trust: ProxyTrust | undefined): string {
  const passed = trust ? rawHeader(req, "x-request-id") : undefined;
  return passed !== undefined && trust?.(req.socket?.remoteAddress, 0) && PASSED_ID.test(passed)
    ? passed
    : newId();
}

/**
 * The id of a request, given once (freshRequestId) and kept, for Fastify (genReqId) and whatever
 * asks after it. It is answered in the X-Request-Id header, written in the request's access line,
 * and carried in every problem+json answer, so a customer's error can be found in the logs.
 */
export function requestIdOf(req: WithId, trust: ProxyTrust | undefined): string {
  let id = req[ID];
  if (id === undefined) {
    id = freshRequestId(req, trust);
    req[ID] = id;
  }
  return id;
}
