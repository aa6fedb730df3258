import { describe, expect, it } from "vitest";
import { commonMessages } from "../../shared/messages/common.js";
import { problemCodes } from "../../shared/problem-codes.js";
import { ApiError, hasCode, toApiError } from "./api.js";
import { problemMessage, withReference } from "./form-errors.js";

const PROBLEM = "application/problem+json";

function answer(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  const text = typeof body === "string" ? body : JSON.stringify(body);
  return new Response(text, { status, headers: { "content-type": PROBLEM, ...headers } });
}

describe("toApiError reads the server's problem+json", () => {
  it("keeps the status, words, field errors, code and request id", async () => {
    const error = await toApiError(
      answer(403, {
        type: "about:blank",
        title: "Forbidden",
        status: 403,
        detail: "Verify your email first.",
        errors: [{ path: "quantity", message: "Too many." }],
        code: problemCodes.emailNotVerified,
        requestId: "req-403",
      }),
    );
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 403,
      title: "Forbidden",
      detail: "Verify your email first.",
      message: "Verify your email first.",
      errors: [{ path: "quantity", message: "Too many." }],
      code: problemCodes.emailNotVerified,
      requestId: "req-403",
    });
    expect(hasCode(error, problemCodes.emailNotVerified)).toBe(true);
    expect(hasCode(error, problemCodes.invalidToken)).toBe(false);
  });

  it("takes the request id from X-Request-Id when the body has none", async () => {
    const body = { type: "about:blank", title: "Service Unavailable", status: 503, detail: "Busy." };
    const error = await toApiError(answer(503, body, { "x-request-id": "req-header" }));
    expect(error.requestId).toBe("req-header");
    expect(error.code).toBeUndefined();
  });

  it("prefers the body's request id to the header's", async () => {
    const body = { type: "about:blank", title: "Internal Server Error", status: 500, requestId: "req-body" };
    const error = await toApiError(answer(500, body, { "x-request-id": "req-header" }));
    expect(error.requestId).toBe("req-body");
  });

  it("keeps the status and the header's request id for an answer that is not JSON", async () => {
    const response = new Response("<h1>Bad Gateway</h1>", {
      status: 502,
      statusText: "Bad Gateway",
      headers: { "content-type": "text/html", "x-request-id": "req-html" },
    });
    const error = await toApiError(response);
    expect(error).toMatchObject({ status: 502, title: "Bad Gateway", requestId: "req-html", errors: [] });
    expect(error.detail).toBeUndefined();
  });

  it("falls back to the status for JSON that is not a problem", async () => {
    const error = await toApiError(answer(500, { oops: true }, { "x-request-id": "req-odd" }));
    expect(error).toMatchObject({
      status: 500,
      title: "Request failed with status 500",
      requestId: "req-odd",
    });
  });

  it("falls back to the status for a body that is not JSON at all", async () => {
    const error = await toApiError(answer(500, "not json"));
    expect(error).toMatchObject({ status: 500, requestId: undefined, code: undefined });
  });

  it("hasCode is false for anything but an ApiError", () => {
    expect(hasCode(new Error("INVALID_TOKEN"), problemCodes.invalidToken)).toBe(false);
    expect(hasCode(undefined, problemCodes.invalidToken)).toBe(false);
  });
});

describe("the message shown for a failure", () => {
  it("carries the request id for a 5xx, 503 included", () => {
    const unavailable = new ApiError(503, "Service Unavailable", { detail: "Busy.", requestId: "req-503" });
    expect(problemMessage(unavailable)).toBe(`Busy. ${commonMessages.reference("req-503")}`);
    expect(commonMessages.reference("req-503")).toBe("Reference: req-503");
    const fault = new ApiError(500, "Internal Server Error", { requestId: "req-500" });
    expect(problemMessage(fault)).toBe(`Internal Server Error ${commonMessages.reference("req-500")}`);
    expect(withReference(commonMessages.loadFailed, fault)).toBe(
      `${commonMessages.loadFailed} ${commonMessages.reference("req-500")}`,
    );
  });

  it("says no reference for the customer's own mistakes, nor without an id", () => {
    const refused = new ApiError(409, "Conflict", { detail: "Out of stock.", requestId: "req-409" });
    expect(problemMessage(refused)).toBe("Out of stock.");
    expect(problemMessage(new ApiError(500, "Internal Server Error"))).toBe("Internal Server Error");
    expect(problemMessage(new TypeError("fetch failed"))).toBe(commonMessages.networkError);
  });
});
