import Fastify, { type FastifyInstance } from "fastify";
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from "fastify-type-provider-zod";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { problemSchema } from "../../shared/problem.js";
import {
  conflict,
  ForeignError,
  fieldErrors,
  HttpProblem,
  type ProblemTable,
  ServiceUnavailable,
  TooManyRequests,
} from "../lib/problem.js";
import errors from "./errors.js";

const SERVER_FAULT = "Something went wrong on our side. Please try again.";

/** A library's errors as a feature words them (the sign-in proxy's, the uploads' tables). */
const libraryProblems: ProblemTable = {
  source: "library",
  codes: {
    WORDED: (error) => new HttpProblem(401, "Unauthorized", "In the shop's words.", undefined, error.code),
  },
  otherwise: (error) => conflict(`Otherwise: ${error.message}`),
};
const querySchema = z.object({ n: z.coerce.number().int(), items: z.array(z.object({ q: z.number() })) });

let app: FastifyInstance;
beforeAll(async () => {
  const server = Fastify({ logger: false }).withTypeProvider<ZodTypeProvider>();
  server.setValidatorCompiler(validatorCompiler);
  server.setSerializerCompiler(serializerCompiler);
  await server.register(errors, { tables: [libraryProblems] });
  server.get("/foreign/:code", async (request) => {
    const { code } = request.params as { code: string };
    throw new ForeignError("library", code, 400, "the library's message");
  });
  server.get("/unknown-source", async () => {
    throw new ForeignError("no table", "WORDED", 400, "secret internals");
  });
  server.post("/validated-body", { schema: { body: querySchema } }, async () => "ok");
  server.get("/conflict", async () => {
    throw conflict("Out of stock.");
  });
  server.get("/limited", async () => {
    throw new TooManyRequests("Slow down.", 42);
  });
  server.get("/shed", async () => {
    throw new ServiceUnavailable("Busy.", 3);
  });
  server.get("/database-away", async () => {
    throw Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" });
  });
  server.get("/no-connection-slot", async () => {
    throw Object.assign(new Error("sorry, too many clients already"), { code: "53300" });
  });
  server.get("/deadlock", async () => {
    // As Drizzle throws it: the driver's error, with its SQLSTATE, as the cause.
    const driver = Object.assign(new Error("deadlock detected"), { code: "40P01" });
    throw new Error("Failed query: update product", { cause: driver });
  });
  server.get("/fault", async () => {
    throw new Error("secret internals");
  });
  server.get("/too-large", async () => {
    throw Object.assign(new Error("Request body is too large"), { statusCode: 413 });
  });
  server.get(
    "/validated",
    { schema: { querystring: z.object({ n: z.coerce.number().int() }) } },
    async () => "ok",
  );
  app = server;
  await app.ready();
});
afterAll(async () => {
  await app.close();
});

async function problemAt(url: string) {
  const res = await app.inject({ url });
  expect(res.headers["content-type"]).toContain("application/problem+json");
  return { res, problem: problemSchema.parse(res.json()) };
}

/** A whole problem: these fields and the request id, nothing more. */
const whole = (status: number, title: string, detail: string) => ({
  type: "about:blank",
  status,
  title,
  detail,
  requestId: expect.any(String),
});

describe("the one mapping from errors to problem+json", () => {
  it("answers a thrown problem with its own status, title and detail", async () => {
    const { res, problem } = await problemAt("/conflict");
    expect(res.statusCode).toBe(409);
    expect(problem).toEqual(whole(409, "Conflict", "Out of stock."));
  });

  it("says when to ask again for a rate limit and for load shed on purpose", async () => {
    const limited = await problemAt("/limited");
    expect(limited.res.statusCode).toBe(429);
    expect(limited.res.headers["retry-after"]).toBe("42");
    expect(limited.problem).toMatchObject({ title: "Too Many Requests", detail: "Slow down." });
    const shed = await problemAt("/shed");
    expect(shed.res.statusCode).toBe(503);
    expect(shed.res.headers["retry-after"]).toBe("3");
  });

  // A database away, out of connection slots, or a transaction rolled back for a deadlock: load
  // to retry after a while, not a fault.
  it.each([
    ["while the database is away", "/database-away", "5"],
    ["when PostgreSQL has no connection slot left", "/no-connection-slot", "5"],
    ["for a transaction rolled back for a deadlock", "/deadlock", "1"],
  ])("answers 503 with Retry-After %s", async (_, path, retryAfter) => {
    const { res, problem } = await problemAt(path);
    expect(res.statusCode).toBe(503);
    expect(res.headers["retry-after"]).toBe(retryAfter);
    expect(problem).toMatchObject({ title: "Service Unavailable" });
  });

  it("answers an unknown error with a generic 500 that leaks nothing", async () => {
    const { res, problem } = await problemAt("/fault");
    expect(res.statusCode).toBe(500);
    expect(problem).toEqual(whole(500, "Internal Server Error", SERVER_FAULT));
    expect(res.body).not.toContain("secret");
  });

  it("keeps the status and message of Fastify's own 4xx errors", async () => {
    const { res, problem } = await problemAt("/too-large");
    expect(res.statusCode).toBe(413);
    expect(problem).toMatchObject({ title: "Content Too Large", detail: "Request body is too large" });
  });

  it("lists the fields of invalid input, the first in the detail", async () => {
    const { res, problem } = await problemAt("/validated?n=x");
    expect(res.statusCode).toBe(400);
    expect(problem.title).toBe("Bad Request");
    expect(problem.errors?.[0]?.path).toBe("n");
    expect(problem.detail).toMatch(/^n: /);
  });

  it("answers a library's error from its feature's table, and as a 500 when no table has its source", async () => {
    const worded = await problemAt("/foreign/WORDED");
    expect(worded.res.statusCode).toBe(401);
    expect(worded.problem).toEqual({
      type: "about:blank",
      status: 401,
      title: "Unauthorized",
      detail: "In the shop's words.",
      code: "WORDED",
      requestId: expect.any(String),
    });
    const other = await problemAt("/foreign/OTHER");
    expect(other.res.statusCode).toBe(409);
    expect(other.problem.detail).toBe("Otherwise: the library's message");
    const unknown = await problemAt("/unknown-source");
    expect(unknown.res.statusCode).toBe(500);
    expect(unknown.res.body).not.toContain("secret");
  });

  it("names invalid fields as fieldErrors does for the same schema's issues", async () => {
    const payload = { n: "x", items: [{ q: 1 }, { q: "y" }] };
    const res = await app.inject({ method: "POST", url: "/validated-body", payload });
    expect(res.statusCode).toBe(400);
    const parsed = querySchema.safeParse(payload);
    expect(parsed.success).toBe(false);
    const expected = fieldErrors(parsed.error?.issues ?? []);
    expect(expected.map((e) => e.path)).toEqual(["n", "items.1.q"]);
    expect(problemSchema.parse(res.json()).errors).toEqual(expected);
  });
});
