import type { FieldError, Problem } from "../../shared/problem.js";

/**
 * An error that becomes an RFC 9457 problem+json response with its status. Every error answer is
 * one of these, made by plugins/errors.ts from whatever was thrown.
 */
export class HttpProblem extends Error {
  constructor(
    readonly status: number,
    readonly title: string,
    readonly detail?: string,
    readonly errors?: FieldError[],
    /** A stable machine-readable reason, where one helps the client. */
    readonly code?: string,
  ) {
    super(detail ?? title);
    this.name = "HttpProblem";
  }

  /** The answer's body: what the client may see, and nothing else of the error. */
  toProblem(): Problem {
    return {
      type: "about:blank",
      status: this.status,
      title: this.title,
      detail: this.detail,
      ...(this.errors ? { errors: this.errors } : {}),
      ...(this.code ? { code: this.code } : {}),
    };
  }
}

export const badRequest = (detail: string, errors?: FieldError[]) =>
  new HttpProblem(400, "Bad Request", detail, errors);
export const unauthorized = (detail = "Please sign in to continue.") =>
  new HttpProblem(401, "Unauthorized", detail);
export const forbidden = (detail = "You are not allowed to do this.") =>
  new HttpProblem(403, "Forbidden", detail);
export const paymentRequired = (detail: string) => new HttpProblem(402, "Payment Required", detail);
export const notFound = (detail = "Not found.") => new HttpProblem(404, "Not Found", detail);
export const conflict = (detail: string, code?: string) =>
  new HttpProblem(409, "Conflict", detail, undefined, code);
/** Something that was there and is gone for good (an archived product); `code` tells the client which. */
export const gone = (detail: string, code?: string) => new HttpProblem(410, "Gone", detail, undefined, code);
export const payloadTooLarge = (detail: string) => new HttpProblem(413, "Content Too Large", detail);
export const unsupportedMediaType = (detail: string) =>
  new HttpProblem(415, "Unsupported Media Type", detail);
export const unprocessable = (detail: string) => new HttpProblem(422, "Unprocessable Content", detail);

/** A problem that passes: its `Retry-After` header says when to ask again. */
export class RetryLater extends HttpProblem {
  constructor(
    status: 429 | 503,
    detail: string,
    readonly retryAfterSeconds: number,
  ) {
    super(status, titleFor(status), detail);
    this.name = "RetryLater";
  }
}

/** A rate limit was reached: a 429 with `Retry-After`. */
export class TooManyRequests extends RetryLater {
  constructor(detail: string, retryAfterSeconds: number) {
    super(429, detail, retryAfterSeconds);
    this.name = "TooManyRequests";
  }
}

/** The shop sheds load it cannot answer now but can soon: a 503 with `Retry-After`. */
export class ServiceUnavailable extends RetryLater {
  constructor(detail: string, retryAfterSeconds: number) {
    super(503, detail, retryAfterSeconds);
    this.name = "ServiceUnavailable";
  }
}

/**
 * A fault of the shop's own: a 500 that says nothing of its cause, which is logged, never sent:
 * a 5xx never leaks internals (README.md, Guarantees: Hostile input, "no stack traces";
 * test/security/hostile-input.test.ts).
 */
export const serverFault = (cause: unknown, code?: string) => {
  const problem = new HttpProblem(
    500,
    titleFor(500),
    "Something went wrong on our side. Please try again.",
    undefined,
    code,
  );
  problem.cause = cause;
  return problem;
};

/** A service the shop depends on (e.g. the payment provider) failed; the cause is logged, not sent. */
export const badGateway = (detail: string, cause: unknown) => {
  const problem = new HttpProblem(502, "Bad Gateway", detail);
  problem.cause = cause;
  return problem;
};

/** One issue of a schema's: where in the input (its path) and what is wrong there. */
interface SchemaIssue {
  readonly path: readonly PropertyKey[];
  readonly message: string;
}

/**
 * The one translation of schema issues into a problem's field errors, each named by its dotted
 * path ("items.0.quantity"): for Fastify's validation (plugins/errors.ts) and for bodies a route
 * parses itself (the sign-in proxy). `rename` gives a field the name its form knows it by.
 */
export function fieldErrors(
  issues: readonly SchemaIssue[],
  rename: Record<string, string> = {},
): FieldError[] {
  return issues.map((issue) => {
    const path = issue.path.map(String).join(".");
    return { path: Object.hasOwn(rename, path) ? (rename[path] ?? path) : path, message: issue.message };
  });
}

/**
 * An error a library gave the shop (an error answer of better-auth's, what @fastify/multipart
 * throws), named by its source and code. The feature that calls the library registers a
 * ProblemTable for the source, which plugins/errors.ts reads to answer it; a route never words it.
 */
export class ForeignError extends Error {
  constructor(
    /** The library, as its ProblemTable names it. */
    readonly source: string,
    /** The library's code for the error ("INVALID_TOKEN", "FST_FILES_LIMIT"), or "" when it has none. */
    readonly code: string,
    /** The HTTP status the library gave it, when it did. */
    readonly status: number | undefined,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = "ForeignError";
  }

  /** What a library threw, as a ForeignError of `source` (a problem the shop threw stays itself). */
  static of(source: string, error: unknown): Error {
    if (error instanceof HttpProblem) return error;
    const e = (error ?? {}) as { code?: unknown; statusCode?: unknown; message?: unknown };
    return new ForeignError(
      source,
      typeof e.code === "string" ? e.code : "",
      typeof e.statusCode === "number" ? e.statusCode : undefined,
      typeof e.message === "string" ? e.message : "",
      { cause: error },
    );
  }
}

/** How the shop answers one library's errors: its own words for some codes, and for the rest. */
export interface ProblemTable {
  readonly source: string;
  readonly codes: Readonly<Record<string, (error: ForeignError) => HttpProblem>>;
  readonly otherwise: (error: ForeignError) => HttpProblem;
}

/** The problem `table` answers for `error`. */
export function problemFromTable(table: ProblemTable, error: ForeignError): HttpProblem {
  const own = Object.hasOwn(table.codes, error.code) ? table.codes[error.code] : undefined;
  return (own ?? table.otherwise)(error);
}

const TITLES: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  402: "Payment Required",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  406: "Not Acceptable",
  409: "Conflict",
  413: "Content Too Large",
  415: "Unsupported Media Type",
  422: "Unprocessable Content",
  429: "Too Many Requests",
  500: "Internal Server Error",
  502: "Bad Gateway",
  503: "Service Unavailable",
};

export function titleFor(status: number): string {
  return TITLES[status] ?? (status >= 500 ? "Server Error" : "Request Error");
}
