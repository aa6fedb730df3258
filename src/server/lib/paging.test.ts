import { describe, expect, it } from "vitest";
import { forgedCursor } from "../test/cursors.js";
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

  const at = "2026-11-23 22:04:05+00";
  it.each([
    "",
    "not-base64-json",
    forgedCursor({}),
    forgedCursor(["yesterday", "x"]),
    forgedCursor([at, ""]),
    forgedCursor([at, "x".repeat(65)]),
    forgedCursor([at, 5]),
    forgedCursor([at, "a", "b"]),
    // Shaped like a time, but not one PostgreSQL takes (it would fail there, a 500): the day, the
    // time of day, the offset.
    ...["2026-02-29", "2026-13-01", "0000-01-01"].map((day) => forgedCursor([`${day} 10:00:00+00`, "a"])),
    ...["24:00:00", "10:60:00", "10:00:60"].map((time) => forgedCursor([`2026-01-01 ${time}+00`, "a"])),
    ...["+16", "+05:60"].map((offset) => forgedCursor([`2026-01-01 10:00:00${offset}`, "a"])),
    // An id with characters no id of the shop has (a NUL would fail in the database).
    ...["a\u0000", "a'b"].map((id) => forgedCursor([at, id])),
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
