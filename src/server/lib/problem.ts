/** An error that becomes an RFC 9457 problem+json response with its status. */
export class HttpProblem extends Error {
  constructor(
    readonly status: number,
    readonly title: string,
    readonly detail?: string,
    readonly errors?: { path: string; message: string }[],
  ) {
    super(detail ?? title);
    this.name = "HttpProblem";
  }
}

export const badRequest = (detail: string, errors?: { path: string; message: string }[]) =>
  new HttpProblem(400, "Bad Request", detail, errors);
export const unauthorized = (detail = "Please sign in to continue.") =>
  new HttpProblem(401, "Unauthorized", detail);
export const forbidden = (detail = "You are not allowed to do this.") =>
  new HttpProblem(403, "Forbidden", detail);
export const paymentRequired = (detail: string) => new HttpProblem(402, "Payment Required", detail);
export const notFound = (detail = "Not found.") => new HttpProblem(404, "Not Found", detail);
export const conflict = (detail: string) => new HttpProblem(409, "Conflict", detail);
export const payloadTooLarge = (detail: string) => new HttpProblem(413, "Content Too Large", detail);
export const unsupportedMediaType = (detail: string) =>
  new HttpProblem(415, "Unsupported Media Type", detail);
export const unprocessable = (detail: string) => new HttpProblem(422, "Unprocessable Content", detail);

/** A rate limit was reached: a 429 whose `Retry-After` header says when to ask again. */
export class TooManyRequests extends HttpProblem {
  constructor(
    detail: string,
    readonly retryAfterSeconds: number,
  ) {
    super(429, "Too Many Requests", detail);
    this.name = "TooManyRequests";
  }
}

/** A service the shop depends on (e.g. the payment provider) failed; the cause is logged, not sent. */
export const badGateway = (detail: string, cause: unknown) => {
  const problem = new HttpProblem(502, "Bad Gateway", detail);
  problem.cause = cause;
  return problem;
};

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
