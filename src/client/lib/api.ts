import { commonMessages } from "../../shared/messages/common.js";

/** A failed API call, carrying the server's problem+json details (RFC 9457). */
export class ApiError extends Error {
  readonly status: number;
  readonly title: string;
  readonly detail: string | undefined;
  readonly errors: ReadonlyArray<{ path: string; message: string }>;

  constructor(
    status: number,
    title: string,
    detail?: string,
    errors: ReadonlyArray<{ path: string; message: string }> = [],
  ) {
    super(detail ?? title);
    this.name = "ApiError";
    this.status = status;
    this.title = title;
    this.detail = detail;
    this.errors = errors;
  }
}

type Problem = {
  title?: unknown;
  detail?: unknown;
  errors?: unknown;
};

function isFieldError(value: unknown): value is { path: string; message: string } {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as { path?: unknown }).path === "string" &&
    typeof (value as { message?: unknown }).message === "string"
  );
}

async function toApiError(response: Response): Promise<ApiError> {
  const fallbackTitle = response.statusText || `Request failed with status ${response.status}`;
  const type = response.headers.get("content-type") ?? "";
  if (!type.includes("json")) return new ApiError(response.status, fallbackTitle);
  try {
    const problem = (await response.json()) as Problem;
    return new ApiError(
      response.status,
      typeof problem.title === "string" ? problem.title : fallbackTitle,
      typeof problem.detail === "string" ? problem.detail : undefined,
      Array.isArray(problem.errors) ? problem.errors.filter(isFieldError) : [],
    );
  } catch {
    return new ApiError(response.status, fallbackTitle);
  }
}

export type ApiRequestInit = Omit<RequestInit, "body"> & {
  /** Sent as a JSON body. */
  json?: unknown;
  /** Sent as is (e.g. FormData for uploads). */
  body?: BodyInit;
};

/**
 * Calls the shop's own API on the same origin with the session cookie and returns the
 * parsed JSON answer (undefined for 204). Throws ApiError for every non-2xx answer.
 */
export async function api<T>(path: string, init: ApiRequestInit = {}): Promise<T> {
  const { json, headers, ...rest } = init;
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
  if (!response.ok) throw await toApiError(response);
  if (response.status === 204) return undefined as T;
  return (await response.json()) as T;
}
