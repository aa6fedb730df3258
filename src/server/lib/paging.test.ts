import { describe, expect, it } from "vitest";
import { decodeCursor, encodeCursor, UUID_ID } from "./paging.js";
import { HttpProblem } from "./problem.js";

describe("list cursors", () => {
  it("round-trip the last row's time (to the microsecond) and id", () => {
    const cursor = { at: "2026-11-23 22:04:05.123456+00", id: "3f1c2b8e-1d2a-4c5b-9e6f-7a8b9c0d1e2f" };
    const token = encodeCursor(cursor);
    expect(token).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(token, "bad")).toEqual(cursor);
    expect(decodeCursor(undefined, "bad")).toBeUndefined();
  });

  it("takes every real time, leap days and offsets included", () => {
    for (const at of [
      "2024-02-29 23:59:59.999999+00",
      "2026-11-23T22:04:05Z",
      "2026-11-23 22:04:05-09:30",
      "2026-11-23 22:04:05+0545",
      "0001-01-01 00:00:00",
    ])
      expect(decodeCursor(encodeCursor({ at, id: "a" }), "bad")).toEqual({ at, id: "a" });
  });

  it("checks the id against the list's own kind of id", () => {
    const uuid = "3f1c2b8e-1d2a-4c5b-9e6f-7a8b9c0d1e2f";
    const at = "2026-11-23 22:04:05+00";
    expect(decodeCursor(encodeCursor({ at, id: uuid }), "bad", UUID_ID)).toEqual({ at, id: uuid });
    expect(() => decodeCursor(encodeCursor({ at, id: "not-a-uuid" }), "bad", UUID_ID)).toThrow(HttpProblem);
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
    // Shaped like a time, but not one PostgreSQL takes: it would fail there, a 500.
    Buffer.from('["2026-02-29 10:00:00+00","a"]').toString("base64url"),
    Buffer.from('["2026-13-01 10:00:00+00","a"]').toString("base64url"),
    Buffer.from('["0000-01-01 10:00:00+00","a"]').toString("base64url"),
    Buffer.from('["2026-01-01 24:00:00+00","a"]').toString("base64url"),
    Buffer.from('["2026-01-01 10:60:00+00","a"]').toString("base64url"),
    Buffer.from('["2026-01-01 10:00:60+00","a"]').toString("base64url"),
    Buffer.from('["2026-01-01 10:00:00+16","a"]').toString("base64url"),
    Buffer.from('["2026-01-01 10:00:00+05:60","a"]').toString("base64url"),
    // An id with characters no id of the shop has (a NUL would fail in the database).
    Buffer.from('["2026-11-23 22:04:05+00","a\\u0000"]').toString("base64url"),
    Buffer.from('["2026-11-23 22:04:05+00","a\'b"]').toString("base64url"),
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
