import { type FastifyBaseLogger, type FastifyReply, type FastifyRequest, LogController } from "fastify";

/**
 * The request's access line and its id header, for both ways an answer leaves the shop: through
 * Fastify (AccessLog, the onRequest hook in app.ts) and early on node:http (plugins/early-answers.ts).
 * Both call these functions, so a field or header added here reaches every answer.
 */

/** The header every answer names its request's id in (lib/request-id.ts gives the id). */
export const REQUEST_ID_HEADER = "x-request-id";

const COMPLETED = "request completed";

/**
 * One line per request: the route it matched (its pattern, never the URL, whose path or query may
 * carry a token), status, duration and the signed-in user's id. The request's id (reqId) is bound
 * to the logger that writes it. No header, cookie or body is logged.
 */
export interface AccessLine {
  method: string;
  route: string | null;
  status: number;
  ms: number;
  userId: string | null;
}

/** The levels at which access lines (info) are written. */
const LOGS_ACCESS = new Set(["trace", "debug", "info"]);

/** Whether access lines are written at `log`'s level: an answer that is not logged need not time itself. */
export function logsAccess(log: FastifyBaseLogger): boolean {
  return LOGS_ACCESS.has(log.level);
}

/** Writes the access line of an answer given early, which has no child logger bound to its id. */
export function logEarlyAnswer(log: FastifyBaseLogger, reqId: string, line: AccessLine): void {
  log.info({ reqId, ...line }, COMPLETED);
}

/**
 * One access line per request, written when it is answered, instead of Fastify's two (the
 * "incoming request" line moves to debug): half the logging work on every request.
 */
export class AccessLog extends LogController {
  override incomingRequest(request: FastifyRequest): void {
    request.log.debug({ req: request }, "incoming request");
  }

  override requestCompleted(error: Error | null, request: FastifyRequest, reply: FastifyReply): void {
    const line: AccessLine = {
      method: request.method,
      route: request.routeOptions.url ?? null,
      status: reply.statusCode,
      ms: reply.elapsedTime,
      userId: request.sessionUserId ?? null,
    };
    if (error) reply.log.error({ ...line, err: error }, "request errored");
    else reply.log.info(line, COMPLETED);
  }
}
