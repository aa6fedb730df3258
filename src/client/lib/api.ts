import { commonMessages } from "../../shared/messages/common.js";
import type { FieldError } from "../../shared/problem.js";
import { problemCodes } from "../../shared/problem-codes.js";

/** What a problem+json answer says besides its status and title. */
type ProblemDetails = {
  detail?: string | undefined;
  errors?: ReadonlyArray<FieldError> | undefined;
  code?: string | undefined;
  requestId?: string | undefined;
};

/** A failed API call, carrying the server's problem+json details (RFC 9457). */
export class ApiError extends Error {
  readonly status: number;
  readonly title: string;
  readonly detail: string | undefined;
  readonly errors: ReadonlyArray<FieldError>;
  /** The server's stable reason (src/shared/problem-codes.ts): what the client branches on, never the words. */
  readonly code: string | undefined;
  /** The request's id, by which the shop's logs find it: shown with a 5xx so a customer can quote it. */
  readonly requestId: string | undefined;

  constructor(status: number, title: string, details: ProblemDetails = {}) {
    super(details.detail ?? title);
    this.name = "ApiError";
    this.status = status;
    this.title = title;
    this.detail = details.detail;
    this.errors = details.errors ?? [];
    this.code = details.code;
    this.requestId = details.requestId;
  }
}

/** Whether `error` is the server's problem with this `code`. */
export function hasCode(error: unknown, code: string): boolean {
  return error instanceof ApiError && error.code === code;
}

const text = (value: unknown) => (typeof value === "string" ? value : undefined);

/**
 * The server's problem, read with its schema (src/shared/problem.ts), or only the status for any
 * other answer. The request id comes from the body, or else from the X-Request-Id header, which
 * every answer of the shop carries (a failure that is not problem+json too). The schema, and zod
 * with it, load with the first failed call: every page needs this module, and most never see an
 * error.
 */
export async function toApiError(response: Response): Promise<ApiError> {
  const fallbackTitle = response.statusText || `Request failed with status ${response.status}`;
  const headerId = response.headers.get("x-request-id") ?? undefined;
  const type = response.headers.get("content-type") ?? "";
  if (!type.includes("json")) return new ApiError(response.status, fallbackTitle, { requestId: headerId });
  const [body, schema] = await Promise.all([
    response.json().catch(() => null),
    import("../../shared/problem.js").then(
      (module) => module.problemSchema,
      // A tab opened before a deploy may not find the chunk any more: the server's words are
      // still read, field errors aside, rather than losing them for a bare status.
      () => undefined,
    ),
  ]);
  if (!schema) {
    const problem = (body ?? {}) as Record<string, unknown>;
    const title = text(problem.title);
    const requestId = text(problem.requestId) ?? headerId;
    return title
      ? new ApiError(response.status, title, {
          detail: text(problem.detail),
          code: text(problem.code),
          requestId,
        })
      : new ApiError(response.status, fallbackTitle, { requestId });
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success) return new ApiError(response.status, fallbackTitle, { requestId: headerId });
  const { title, detail, errors, code, requestId } = parsed.data;
  return new ApiError(response.status, title, { detail, errors, code, requestId: requestId ?? headerId });
}

/**
 * What the signed-in area does when the server asks for a second factor (problem codes in
 * shared/problem-codes.ts): `stepUp` asks for one in place and resolves true once proved (the
 * request is then sent again, once); `enrol` opens the enrolment screen. Set by the dashboard.
 */
export const secondFactorHandlers: {
  stepUp: (() => Promise<boolean>) | null;
  enrol: (() => void) | null;
} = { stepUp: null, enrol: null };

export type ApiRequestInit = Omit<RequestInit, "body"> & {
  /** Sent as a JSON body. */
  json?: unknown;
  /** Sent as is (e.g. FormData for uploads). */
  body?: BodyInit;
  /** Sent again after a step-up: a second refusal is not asked again. */
  steppedUp?: boolean;
};

/**
 * Calls the shop's own API on the same origin with the session cookie and returns the
 * parsed JSON answer (undefined for 204). Throws ApiError for every non-2xx answer.
 */
export async function api<T>(path: string, init: ApiRequestInit = {}): Promise<T> {
  const { json, headers, steppedUp: _again, ...rest } = init;
  const requestHeaders = new Headers(headers);
  requestHeaders.set("accept", "application/json, application/problem+json");
  let body = rest.body;
  if (json !== undefined) {
    requestHeaders.set("content-type", "application/json");
    body = JSON.stringify(json);
  }
  let response: Response;
  try {
    response = await fetch(path, { ...rest, body, headers: requestHeaders, credentials: "same-origin" });
  } catch (cause) {
    if (cause instanceof DOMException && cause.name === "AbortError") throw cause;
    throw new ApiError(0, commonMessages.networkError);
  }
  if (!response.ok) {
    const error = await toApiError(response);
    if (response.status === 403 && error.code === problemCodes.stepUpRequired && !init.steppedUp) {
      const stepUp = secondFactorHandlers.stepUp;
      if (stepUp && (await stepUp())) return api<T>(path, { ...init, steppedUp: true });
    }
    if (response.status === 403 && error.code === problemCodes.secondFactorEnrolment)
      secondFactorHandlers.enrol?.();
    throw error;
  }
  if (response.status === 204) return undefined as T;
  return (await response.json()) as T;
}

/** A query's fetcher for a GET of `path` (an api/ file's queryFn): the query's signal cancels it. */
export function fetcherOf<T>(path: string): (context: { signal: AbortSignal }) => Promise<T> {
  return ({ signal }) => api<T>(path, { signal });
}
