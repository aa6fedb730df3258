import type { IncomingMessage } from "node:http";
import { describe, expect, it } from "vitest";
import { freshRequestId } from "./request-id.js";

const request = (...rawHeaders: string[]) => ({ rawHeaders }) as unknown as IncomingMessage;

describe("freshRequestId", () => {
  it("gives 128 random bits in hex, never the same twice, across many draws from the system", () => {
    // 10,000 ids use the pool of 4,096 up and draw it again twice.
    const ids = Array.from({ length: 10_000 }, () => freshRequestId(request(), false));
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{32}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("keeps a trusted balancer's well-formed id, and makes its own otherwise", () => {
    expect(freshRequestId(request("X-Request-Id", "lb-7f3a.42"), true)).toBe("lb-7f3a.42");
    expect(freshRequestId(request("X-Request-Id", "lb-7f3a.42"), false)).toMatch(/^[0-9a-f]{32}$/);
    expect(freshRequestId(request("x-request-id", 'x" "msg":"forged'), true)).toMatch(/^[0-9a-f]{32}$/);
  });
});
