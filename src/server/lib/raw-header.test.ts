import type { IncomingMessage } from "node:http";
import { describe, expect, it } from "vitest";
import { rawHeader } from "./raw-header.js";

const request = (...rawHeaders: string[]) => ({ rawHeaders }) as unknown as IncomingMessage;

describe("rawHeader", () => {
  it("finds a header whatever the case it was sent in", () => {
    const req = request("Host", "shop.example", "Accept-Encoding", "gzip, br", "IF-NONE-MATCH", '"abc"');
    expect(rawHeader(req, "accept-encoding")).toBe("gzip, br");
    expect(rawHeader(req, "if-none-match")).toBe('"abc"');
  });

  it("joins repeated lines with a comma as node:http does, and answers undefined for a missing one", () => {
    const req = request("If-None-Match", '"a"', "Accept", "*/*", "if-none-match", '"b"');
    expect(rawHeader(req, "if-none-match")).toBe('"a", "b"');
    expect(rawHeader(req, "accept-encoding")).toBeUndefined();
    // A name of the same length is not taken for another.
    expect(rawHeader(request("X-Request-Iq", "1"), "x-request-id")).toBeUndefined();
  });
});
