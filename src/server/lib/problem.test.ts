import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  conflict,
  ForeignError,
  fieldErrors,
  HttpProblem,
  type ProblemTable,
  payloadTooLarge,
  problemFromTable,
} from "./problem.js";

describe("fieldErrors, the one translation of schema issues", () => {
  const schema = z.object({
    items: z.array(z.object({ quantity: z.number().int().min(1, "At least one.") })),
    newPassword: z.string().min(8, "Too short."),
    name: z.string({ error: "Name is required." }),
  });
  const issues = () => {
    const parsed = schema.safeParse({ items: [{ quantity: 1 }, { quantity: 0 }], newPassword: "short" });
    if (parsed.success) throw new Error("the input was meant to be invalid");
    return parsed.error.issues;
  };

  it("names each field by its dotted path, array indexes included, with the issue's message", () => {
    expect(fieldErrors(issues())).toEqual([
      { path: "items.1.quantity", message: "At least one." },
      { path: "newPassword", message: "Too short." },
      { path: "name", message: "Name is required." },
    ]);
  });

  it("gives a field the name its form knows it by, and leaves the others", () => {
    expect(fieldErrors(issues(), { newPassword: "password" }).map((e) => e.path)).toEqual([
      "items.1.quantity",
      "password",
      "name",
    ]);
  });

  it("names an issue of the whole input by the empty path, and no inherited name renames a field", () => {
    expect(fieldErrors([{ path: [], message: "Expected an object." }])).toEqual([
      { path: "", message: "Expected an object." },
    ]);
    expect(fieldErrors([{ path: ["constructor"], message: "Bad." }], {})).toEqual([
      { path: "constructor", message: "Bad." },
    ]);
  });
});

/** A library's errors as a feature words them. */
const table: ProblemTable = {
  source: "lib",
  codes: { TOO_BIG: () => payloadTooLarge("Too big.") },
  otherwise: (error) => conflict(`Other: ${error.code || "none"}`),
};

describe("problem tables", () => {
  it("answer a code of their own in their own words, and any other by their fallback", () => {
    expect(problemFromTable(table, new ForeignError("lib", "TOO_BIG", 413, "x")).toProblem()).toMatchObject({
      status: 413,
      detail: "Too big.",
    });
    expect(problemFromTable(table, new ForeignError("lib", "ELSE", 400, "x")).detail).toBe("Other: ELSE");
    // A name every object inherits is no code of the table's.
    expect(problemFromTable(table, new ForeignError("lib", "toString", 400, "x")).detail).toBe(
      "Other: toString",
    );
  });

  it("take what a library threw as a ForeignError of its source, a problem the shop threw as itself", () => {
    const thrown = Object.assign(new Error("reach files limit"), {
      code: "FST_FILES_LIMIT",
      statusCode: 413,
    });
    const foreign = ForeignError.of("lib", thrown);
    expect(foreign).toBeInstanceOf(ForeignError);
    expect(foreign).toMatchObject({ source: "lib", code: "FST_FILES_LIMIT", status: 413 });
    expect(foreign.cause).toBe(thrown);
    expect(ForeignError.of("lib", new Error("plain"))).toMatchObject({ code: "", status: undefined });
    const own = conflict("Mine.");
    expect(ForeignError.of("lib", own)).toBe(own);
    expect(own).toBeInstanceOf(HttpProblem);
  });
});
