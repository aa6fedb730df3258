import Fastify, { type FastifyInstance } from "fastify";
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from "fastify-type-provider-zod";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { problemSchema } from "../../shared/problem.js";
import { conflict, ServiceUnavailable, TooManyRequests } from "../lib/problem.js";
import errors from "./errors.js";

const SERVER_FAULT = "Something went wrong on our side. Please try again.";

let app: FastifyInstance;
beforeAll(async () => {
  const server = Fastify({ logger: false }).withTypeProvider<ZodTypeProvider>();
  server.setValidatorCompiler(validatorCompiler);
  server.setSerializerCompiler(serializerCompiler);
  await server.register(errors);
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

describe("the one mapping from errors to problem+json", () => {
  it("answers a thrown problem with its own status, title and detail", async () => {
    const { res, problem } = await problemAt("/conflict");
    expect(res.statusCode).toBe(409);
    expect(problem).toEqual({
      type: "about:blank",
      status: 409,
      title: "Conflict",
      detail: "Out of stock.",
      requestId: expect.any(String),
    });
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

  it("answers 503 with Retry-After while the database is away", async () => {
    const { res, problem } = await problemAt("/database-away");
    expect(res.statusCode).toBe(503);
    expect(res.headers["retry-after"]).toBe("5");
    expect(problem).toMatchObject({ title: "Service Unavailable" });
  });

  it("answers an unknown error with a generic 500 that leaks nothing", async () => {
    const { res, problem } = await problemAt("/fault");
    expect(res.statusCode).toBe(500);
    expect(problem).toEqual({
      type: "about:blank",
      status: 500,
      title: "Internal Server Error",
      detail: SERVER_FAULT,
      requestId: expect.any(String),
    });
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
});
