import { describe, expect, it } from "vitest";
import { setUpTestApp } from "./test/app.js";

const ctx = setUpTestApp();

describe("platform", () => {
  it("answers /healthz and /readyz when the database is up", async () => {
    expect((await ctx.app.inject({ url: "/healthz" })).json()).toEqual({ status: "ok" });
    const ready = await ctx.app.inject({ url: "/readyz" });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: "ready" });
  });

  it("answers unknown /api paths with a 404 problem", async () => {
    const res = await ctx.app.inject({ url: "/api/nothing-here" });
    expect(res.statusCode).toBe(404);
    expect(res.headers["content-type"]).toContain("application/problem+json");
    expect(res.json()).toMatchObject({ type: "about:blank", title: "Not Found", status: 404 });
  });

  it("sends a strict CSP and the other security headers", async () => {
    const res = await ctx.app.inject({ url: "/api/products" });
    const csp = String(res.headers["content-security-policy"]);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toMatch(/script-src 'self'(;|$)/);
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("base-uri 'self'");
    expect(res.headers["x-content-type-options"]).toBe("nosniff");
    expect(res.headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
    expect(res.headers["strict-transport-security"]).toBeUndefined();
  });

  it("refuses a state-changing request from a foreign origin", async () => {
    const res = await ctx.app.inject({
      method: "POST",
      url: "/api/products",
      headers: { origin: "https://evil.example", "content-type": "application/json" },
      payload: {},
    });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ status: 403, detail: "Cross-origin requests are not allowed." });
    const site = await ctx.app.inject({
      method: "DELETE",
      url: "/api/users/x",
      headers: { "sec-fetch-site": "cross-site" },
    });
    expect(site.statusCode).toBe(403);
  });

  it("publishes the OpenAPI document with the catalog routes", async () => {
    const res = await ctx.app.inject({ url: "/api/docs/json" });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(["/api/products", "/api/products/{id}", "/api/reviews"]),
    );
  });

  it("declares a 400 on every operation that validates input, and a 401 on every guarded one", async () => {
    type Operation = { parameters?: unknown[]; requestBody?: unknown; responses: Record<string, unknown> };
    const doc = (await ctx.app.inject({ url: "/api/docs/json" })).json<{
      paths: Record<string, Record<string, Operation>>;
    }>();
    const operations = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, operation]) => ({
        name: `${method.toUpperCase()} ${path}`,
        operation,
      })),
    );
    // Better-auth's forwarded endpoints are described by its own plugin, not by these routes.
    const shops = operations.filter(({ name }) => !name.includes("/api/auth/"));
    const takesInput = shops.filter(
      ({ operation }) => (operation.parameters?.length ?? 0) > 0 || operation.requestBody !== undefined,
    );
    expect(takesInput.length).toBeGreaterThan(40);
    // Input no request can get wrong: any file name is a look-up, and an unknown one is a 404.
    const cannotFail = new Set(["GET /api/images/{file}"]);
    const undeclared = takesInput.filter(
      ({ name, operation }) => !("400" in operation.responses) && !cannotFail.has(name),
    );
    expect(undeclared.map(({ name }) => name)).toEqual([]);
    const guarded = shops.filter(
      ({ operation }) => "403" in operation.responses && !("401" in operation.responses),
    );
    expect(guarded.map(({ name }) => name)).toEqual([]);
  });
});
