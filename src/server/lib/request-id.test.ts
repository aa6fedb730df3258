import type { IncomingMessage } from "node:http";
import { describe, expect, it } from "vitest";
import { freshRequestId } from "./request-id.js";
import { proxyTrust } from "./trusted-proxy.js";

/** A request from `peer` (the socket's remote address) with these raw headers. */
const from = (peer: string, ...rawHeaders: string[]) =>
  ({ rawHeaders, socket: { remoteAddress: peer } }) as unknown as IncomingMessage;
const request = (...rawHeaders: string[]) => from("127.0.0.1", ...rawHeaders);
const RANDOM = /^[0-9a-f]{32}$/;

describe("freshRequestId", () => {
  it("gives 128 random bits in hex, never the same twice, across many draws from the system", () => {
    // 10,000 ids use the pool of 4,096 up and draw it again twice.
    const ids = Array.from({ length: 10_000 }, () => freshRequestId(request(), undefined));
    for (const id of ids) expect(id).toMatch(RANDOM);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("keeps a trusted balancer's well-formed id, and makes its own otherwise", () => {
    const oneHop = proxyTrust({ hops: 1 });
    expect(freshRequestId(request("X-Request-Id", "lb-7f3a.42"), oneHop)).toBe("lb-7f3a.42");
    expect(freshRequestId(request("X-Request-Id", "lb-7f3a.42"), undefined)).toMatch(RANDOM);
    expect(freshRequestId(request("x-request-id", 'x" "msg":"forged'), oneHop)).toMatch(RANDOM);
  });

  it("keeps the id only from the balancer's own address when TRUST_PROXY lists addresses", () => {
    const balancer = proxyTrust({ addresses: ["10.0.0.5", "10.1.0.0/16"] });
    const passed = ["X-Request-Id", "lb-1"];
    expect(freshRequestId(from("10.0.0.5", ...passed), balancer)).toBe("lb-1");
    expect(freshRequestId(from("10.1.200.3", ...passed), balancer)).toBe("lb-1");
    expect(freshRequestId(from("::ffff:10.0.0.5", ...passed), balancer)).toBe("lb-1");
    // A client that reaches the instance past the balancer does not choose its id.
    expect(freshRequestId(from("203.0.113.9", ...passed), balancer)).toMatch(RANDOM);
    expect(freshRequestId(from("10.0.0.6", ...passed), balancer)).toMatch(RANDOM);
  });
});
