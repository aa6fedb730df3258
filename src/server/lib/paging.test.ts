import { describe, expect, it } from "vitest";
import { decodeCursor, encodeCursor } from "./paging.js";
import { HttpProblem } from "./problem.js";

describe("list cursors", () => {
  it("round-trip the last row's time (to the microsecond) and id", () => {
    const cursor = { at: "2026-11-23 22:04:05.123456+00", id: "3f1c2b8e-1d2a-4c5b-9e6f-7a8b9c0d1e2f" };
    const token = encodeCursor(cursor);
    expect(token).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(token, "bad")).toEqual(cursor);
    expect(decodeCursor(undefined, "bad")).toBeUndefined();
  });

  it.each([
    "",
    "not-base64-json",
    Buffer.from("{}").toString("base64url"),
    Buffer.from('["yesterday","x"]').toString("base64url"),
    Buffer.from('["2026-11-23 22:04:05+00",""]').toString("base64url"),
    Buffer.from(`["2026-11-23 22:04:05+00","${"x".repeat(65)}"]`).toString("base64url"),
    Buffer.from('["2026-11-23 22:04:05+00",5]').toString("base64url"),
    Buffer.from('["2026-11-23 22:04:05+00","a","b"]').toString("base64url"),
  ])("refuses a forged cursor %j with a 400 and the given message", (token) => {
    try {
      decodeCursor(token, "That page link is no longer valid.");
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(HttpProblem);
      expect((error as HttpProblem).status).toBe(400);
      expect((error as HttpProblem).detail).toBe("That page link is no longer valid.");
    }
  });
});
