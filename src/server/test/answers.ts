import type { LightMyRequestResponse } from "fastify";

/**
 * An answer as two of them can be compared: status, body and headers, without what differs per
 * request anyway (its date and its request id) and the headers named in `omit`.
 */
export function comparableAnswer(res: LightMyRequestResponse, omit: string[] = []) {
  const headers: Record<string, unknown> = { ...res.headers };
  for (const name of ["date", "x-request-id", ...omit]) delete headers[name];
  return { status: res.statusCode, body: res.body, headers };
}
