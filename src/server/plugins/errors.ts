import type { FastifyBaseLogger, FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import type { FieldError } from "../../shared/problem.js";
import {
  badRequest,
  HttpProblem,
  RetryLater,
  ServiceUnavailable,
  serverFault,
  titleFor,
} from "../lib/problem.js";

const DATABASE_DOWN_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "57P01",
  "57P03",
  "08006",
  "08001",
  "08003",
]);

/** What the pg driver says when the database is away, for errors that carry no SQLSTATE. */
const DATABASE_DOWN_MESSAGES = [
  "timeout expired", // a new connection's connect timeout (db/client.ts)
  "timeout exceeded when trying to connect", // no free connection in time: the pool is saturated
  "connection terminated", // the server ended the connection under a query
  "connection error and is not queryable", // ... or between two queries of a transaction
  "query read timeout", // query_timeout: the server stopped answering on an open connection
];

function isDatabaseUnavailable(error: unknown): boolean {
  const e = error as { code?: string; message?: string; cause?: unknown };
  if (e?.code && DATABASE_DOWN_CODES.has(e.code)) return true;
  const message = typeof e?.message === "string" ? e.message.toLowerCase() : "";
  if (DATABASE_DOWN_MESSAGES.some((m) => message.includes(m))) return true;
  return e?.cause ? isDatabaseUnavailable(e.cause) : false;
}

interface ValidationIssue {
  instancePath?: string;
  message?: string;
  params?: { issue?: { path?: PropertyKey[]; message?: string } };
}

function validationErrors(error: FastifyError): FieldError[] {
  return ((error.validation ?? []) as ValidationIssue[]).map((v) => {
    const issuePath = v.params?.issue?.path;
    const pathText = issuePath?.length
      ? issuePath.map(String).join(".")
      : (v.instancePath ?? "").replace(/^\//, "").replaceAll("/", ".");
    return { path: pathText, message: v.params?.issue?.message ?? v.message ?? "Invalid value" };
  });
}

/**
 * The one mapping from what was thrown to the problem answered, logging what needs a look: a
 * problem stays itself, invalid input becomes a 400 listing its fields, a database away a 503 with
 * Retry-After, another 4xx of Fastify's keeps its status and message, anything else a generic 500.
 */
function problemFor(error: unknown, log: FastifyBaseLogger): HttpProblem {
  if (error instanceof HttpProblem) {
    // A 503 is load the shop sheds on purpose, not a fault.
    if (error instanceof ServiceUnavailable) log.warn({ err: error, cause: error.cause }, error.title);
    else if (error.status >= 500) log.error({ err: error, cause: error.cause }, error.title);
    return error;
  }
  const fastifyError = (error ?? {}) as Partial<FastifyError>;
  if (fastifyError.validation) {
    const errs = validationErrors(fastifyError as FastifyError);
    const first = errs[0];
    const detail = first
      ? `${first.path ? `${first.path}: ` : ""}${first.message}`
      : "The request is invalid.";
    return badRequest(detail, errs);
  }
  if (isDatabaseUnavailable(error)) {
    log.warn({ err: error }, "database unavailable");
    return new ServiceUnavailable("The shop is briefly unavailable. Please try again in a moment.", 5);
  }
  const status = fastifyError.statusCode;
  if (status && status >= 400 && status < 500)
    return new HttpProblem(status, titleFor(status), fastifyError.message);
  log.error({ err: error }, "unhandled error");
  return serverFault(error);
}

/**
 * Answers `error` as problem+json (RFC 9457), with Retry-After when it passes. Every error answer
 * of the shop goes through here: the error handler below, and Fastify's frameworkErrors
 * (plugins/security.ts), which no handler sees.
 */
export function sendError(error: unknown, request: FastifyRequest, reply: FastifyReply) {
  const problem = problemFor(error, request.log);
  if (problem instanceof RetryLater) reply.header("retry-after", String(problem.retryAfterSeconds));
  return reply
    .code(problem.status)
    .type("application/problem+json")
    .send({ ...problem.toProblem(), requestId: request.id });
}

/** Whatever a route, a hook or the not-found handler throws is answered by sendError. */
async function errors(app: FastifyInstance) {
  app.setErrorHandler((error, request, reply) => sendError(error, request, reply));
}

export default fp(errors, { name: "errors" });
