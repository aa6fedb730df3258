import type { FastifyBaseLogger, FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import type { FieldError } from "../../shared/problem.js";
import { TRANSIENT_CONFLICTS } from "../db/client.js";
import {
  badRequest,
  ForeignError,
  fieldErrors,
  HttpProblem,
  type ProblemTable,
  problemFromTable,
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
  // too_many_connections: every slot taken (max_connections, or the role's or database's limit).
  // Load the client may retry, like a saturated pool, not a fault of the shop's.
  "53300",
]);

/** What the pg driver says when the database is away, for errors that carry no SQLSTATE. */
const DATABASE_DOWN_MESSAGES = [
  "timeout expired", // a new connection's connect timeout (db/client.ts)
  "timeout exceeded when trying to connect", // no free connection in time: the pool is saturated
  "connection terminated", // the server ended the connection under a query
  "connection error and is not queryable", // ... or between two queries of a transaction
  "query read timeout", // query_timeout: the server stopped answering on an open connection
];

const BRIEFLY_UNAVAILABLE = "The shop is briefly unavailable. Please try again in a moment.";

function isDatabaseUnavailable(error: unknown): boolean {
  const e = error as { code?: string; message?: string; cause?: unknown };
  if (e?.code && DATABASE_DOWN_CODES.has(e.code)) return true;
  const message = typeof e?.message === "string" ? e.message.toLowerCase() : "";
  if (DATABASE_DOWN_MESSAGES.some((m) => message.includes(m))) return true;
  return e?.cause ? isDatabaseUnavailable(e.cause) : false;
}

/**
 * A deadlock or serialization failure (db/client.ts): the statement was rolled back for other
 * transactions' sake and nothing of it kept. Single statements are run again by the pool; a
 * transaction that meets one is answered as load, a 503 the client may retry, never a fault.
 */
function isTransientConflict(error: unknown): boolean {
  const e = error as { code?: string; cause?: unknown };
  if (typeof e?.code === "string" && TRANSIENT_CONFLICTS.has(e.code)) return true;
  return e?.cause && e.cause !== e ? isTransientConflict(e.cause) : false;
}

/** An entry of a Fastify validation error: fastify-type-provider-zod's form of a zod issue. */
interface ValidationEntry {
  instancePath?: string;
  message?: string;
}

/** Fastify's validation error as field errors; the provider keeps an issue's path in instancePath. */
function validationErrors(error: FastifyError): FieldError[] {
  const issues = ((error.validation ?? []) as ValidationEntry[]).map((v) => ({
    path: (v.instancePath ?? "").replace(/^\//, "").split("/"),
    message: v.message ?? "Invalid value",
  }));
  return fieldErrors(issues);
}

/**
 * The one mapping from what was thrown to the problem answered, logging what needs a look: a
 * problem stays itself, a library's error is answered by its feature's table, invalid input becomes
 * a 400 listing its fields, a database away a 503 with Retry-After, another 4xx of Fastify's keeps
 * its status and message, anything else a generic 500.
 */
function problemFor(error: unknown, log: FastifyBaseLogger, tables: ProblemTables): HttpProblem {
  if (error instanceof ForeignError) {
    const table = tables.get(error.source);
    if (table) return problemFor(problemFromTable(table, error), log, tables);
  }
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
    return new ServiceUnavailable(BRIEFLY_UNAVAILABLE, 5);
  }
  if (isTransientConflict(error)) {
    log.warn({ err: error }, "database conflict");
    return new ServiceUnavailable(BRIEFLY_UNAVAILABLE, 1);
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
  const problem = problemFor(error, request.log, request.server.problemTables ?? NO_TABLES);
  if (problem instanceof RetryLater) reply.header("retry-after", String(problem.retryAfterSeconds));
  return reply
    .code(problem.status)
    .type("application/problem+json")
    .send({ ...problem.toProblem(), requestId: request.id });
}

type ProblemTables = ReadonlyMap<string, ProblemTable>;
const NO_TABLES: ProblemTables = new Map();

declare module "fastify" {
  interface FastifyInstance {
    /** How the features answer the errors of the libraries they call, by source (lib/problem.ts). */
    problemTables: ProblemTables;
  }
}

interface ErrorsOptions {
  /** The features' tables for the errors of the libraries they call; app.ts hands them over. */
  tables?: readonly ProblemTable[];
}

/** Whatever a route, a hook or the not-found handler throws is answered by sendError. */
async function errors(app: FastifyInstance, opts: ErrorsOptions) {
  app.decorate("problemTables", new Map((opts.tables ?? []).map((table) => [table.source, table])));
  app.setErrorHandler((error, request, reply) => sendError(error, request, reply));
}

export default fp(errors, { name: "errors" });
