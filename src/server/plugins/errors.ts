import type { FastifyError, FastifyInstance, FastifyReply } from "fastify";
import fp from "fastify-plugin";
import { HttpProblem, TooManyRequests, titleFor } from "../lib/problem.js";

export interface Problem {
  type: string;
  title: string;
  status: number;
  detail?: string;
  errors?: { path: string; message: string }[];
  /** A stable machine-readable reason, where one helps the client. */
  code?: string;
}

export function sendProblem(reply: FastifyReply, problem: Omit<Problem, "type"> & { type?: string }) {
  return reply
    .code(problem.status)
    .type("application/problem+json")
    .send({ type: "about:blank", ...problem });
}

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

function validationErrors(error: FastifyError): { path: string; message: string }[] {
  return ((error.validation ?? []) as ValidationIssue[]).map((v) => {
    const issuePath = v.params?.issue?.path;
    const pathText = issuePath?.length
      ? issuePath.map(String).join(".")
      : (v.instancePath ?? "").replace(/^\//, "").replaceAll("/", ".");
    return { path: pathText, message: v.params?.issue?.message ?? v.message ?? "Invalid value" };
  });
}

/** One mapping from error kinds to problem+json answers; unknown errors become a logged, generic 500. */
async function errors(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof HttpProblem) {
      if (error.status >= 500) request.log.error({ err: error, cause: error.cause }, error.title);
      if (error instanceof TooManyRequests) reply.header("retry-after", String(error.retryAfterSeconds));
      return sendProblem(reply, {
        status: error.status,
        title: error.title,
        detail: error.detail,
        ...(error.errors ? { errors: error.errors } : {}),
      });
    }
    if (error.validation) {
      const errs = validationErrors(error);
      return sendProblem(reply, {
        status: 400,
        title: "Bad Request",
        detail: errs[0]
          ? `${errs[0].path ? `${errs[0].path}: ` : ""}${errs[0].message}`
          : "The request is invalid.",
        errors: errs,
      });
    }
    if (isDatabaseUnavailable(error)) {
      request.log.warn({ err: error }, "database unavailable");
      reply.header("retry-after", "5");
      return sendProblem(reply, {
        status: 503,
        title: "Service Unavailable",
        detail: "The shop is briefly unavailable. Please try again in a moment.",
      });
    }
    const status =
      error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
    if (status === 500) {
      request.log.error({ err: error }, "unhandled error");
      return sendProblem(reply, {
        status,
        title: titleFor(status),
        detail: "Something went wrong on our side. Please try again.",
      });
    }
    return sendProblem(reply, { status, title: titleFor(status), detail: error.message });
  });
}

export default fp(errors, { name: "errors" });
