import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { LightMyRequestResponse } from "fastify";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestContext } from "../app.js";
import {
  ACTORS,
  type Actor,
  AUTH_ROUTES,
  type Method,
  multipartImage,
  ROUTES,
  setUpRouteWorld,
} from "../route-cases.js";
import { cookieHeader, ORIGIN, signUp, uniqueEmail } from "../users.js";

/**
 * ASVS V3.4 and V14.4: every kind of answer (page, asset, JSON, problem, image, 404, health, API
 * docs, better-auth's own) carries the security headers, and session cookies are locked down, with
 * Secure and HSTS exactly when PUBLIC_URL is https.
 */

function clientDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), "gearhouse-client-"));
  mkdirSync(path.join(dir, "assets"));
  writeFileSync(
    path.join(dir, "index.html"),
    '<!doctype html><div id="root"></div><script src="/assets/app.js"></script>',
  );
  writeFileSync(path.join(dir, "assets", "app.js"), "console.log('shop');");
  return dir;
}

interface Shop {
  ctx: TestContext;
  origin: string;
  cookie: string;
  imageUrl: string;
}

async function openShop(publicUrl: string): Promise<Shop> {
  const ctx = await createTestApp(
    { PUBLIC_URL: publicUrl, STATIC_DIR: clientDir() },
    { rateLimit: { max: 1000, windowSeconds: 60 } },
  );
  const origin = new URL(publicUrl).origin;
  const signUp = await ctx.app.inject({
    method: "POST",
    url: "/api/auth/sign-up/email",
    headers: { origin },
    payload: {
      name: "Header Tester",
      email: uniqueEmail("headers"),
      password: "Passw0rd!",
      phone: "5550123",
    },
  });
  const cookie = cookieHeader(signUp.headers["set-cookie"]);
  const png = await sharp({ create: { width: 4, height: 4, channels: 3, background: "#ff00ff" } })
    .png()
    .toBuffer();
  const upload = await multipartImage(png);
  const uploaded = await ctx.app.inject({
    method: "POST",
    url: "/api/uploads",
    headers: { ...upload.headers, origin, cookie },
    payload: upload.payload,
  });
  return { ctx, origin, cookie, imageUrl: uploaded.json().url };
}

let http: Shop;
let https: Shop;
beforeAll(async () => {
  [http, https] = await Promise.all([openShop("http://localhost:3000"), openShop("https://shop.example")]);
});
afterAll(async () => {
  await Promise.all([http?.ctx.close(), https?.ctx.close()]);
});

/** One request of each kind of answer the server gives. */
function everyKindOfAnswer(shop: Shop): [string, () => Promise<LightMyRequestResponse>][] {
  const get =
    (url: string, headers: Record<string, string> = {}) =>
    () =>
      shop.ctx.app.inject({ url, headers });
  return [
    ["the SPA's page", get("/")],
    ["a client route (history fallback)", get("/dashboard/myProfile")],
    ["the not-found page (404)", get("/no/such/page")],
    ["a hashed asset", get("/assets/app.js")],
    ["JSON", get("/api/products")],
    ["a signed-in JSON answer", get("/api/me", { cookie: shop.cookie })],
    ["a 400 problem", get("/api/products?page=0")],
    ["a 401 problem", get("/api/me")],
    [
      "a 403 problem (foreign origin)",
      () =>
        shop.ctx.app.inject({
          method: "POST",
          url: "/api/reviews",
          headers: { origin: "https://evil.example" },
        }),
    ],
    [
      "a 415 problem",
      () =>
        shop.ctx.app.inject({
          method: "POST",
          url: "/api/reviews",
          headers: { origin: shop.origin, cookie: shop.cookie, "content-type": "text/plain" },
          payload: "x",
        }),
    ],
    ["an uploaded image", get(shop.imageUrl)],
    ["a 304 for an image", get(shop.imageUrl, { "if-none-match": `"${shop.imageUrl.slice(12, 76)}"` })],
    ["an /api 404", get("/api/nothing-here")],
    ["an asset 404", get("/assets/missing.js")],
    ["a malformed URL", get("/api/products/%zz")],
    ["a path parameter past the router's limit", get(`/api/orders/${"x".repeat(300)}`)],
    ["liveness", get("/healthz")],
    ["readiness", get("/readyz")],
    ["the API docs page", get("/api/docs")],
    ["the OpenAPI document", get("/api/docs/json")],
    [
      "better-auth's own answer (a redirect)",
      get("/api/auth/callback/google?code=x", { cookie: shop.cookie }),
    ],
    ["a better-auth 404", get("/api/auth/no-such-endpoint")],
  ];
}

function csp(res: LightMyRequestResponse): Map<string, string[]> {
  const header = String(res.headers["content-security-policy"] ?? "");
  return new Map(
    header
      .split(";")
      .map((d) => d.trim().split(/\s+/))
      .filter((parts) => parts[0])
      .map(([name = "", ...values]) => [name, values]),
  );
}

describe("security headers on every kind of answer", () => {
  for (const scheme of ["http", "https"] as const) {
    it(`are on each of them over ${scheme}`, async () => {
      const shop = scheme === "http" ? http : https;
      for (const [kind, send] of everyKindOfAnswer(shop)) {
        const res = await send();
        const label = `${kind} (${res.statusCode})`;
        const policy = csp(res);
        const scripts = policy.get("script-src") ?? policy.get("default-src");
        expect(scripts, `${label}: script-src`).toBeDefined();
        expect(scripts, label).not.toContain("'unsafe-inline'");
        expect(scripts, label).not.toContain("'unsafe-eval'");
        expect(policy.get("object-src"), label).toEqual(["'none'"]);
        expect([["'none'"], ["'self'"]], `${label}: base-uri`).toContainEqual(policy.get("base-uri"));
        expect(policy.get("frame-ancestors"), label).toEqual(["'none'"]);
        expect(res.headers["x-content-type-options"], label).toBe("nosniff");
        expect(res.headers["referrer-policy"], label).toMatch(
          /^(no-referrer|same-origin|strict-origin(-when-cross-origin)?)$/,
        );
        if (scheme === "https")
          expect(res.headers["strict-transport-security"], label).toMatch(/max-age=\d{8,}/);
        else expect(res.headers["strict-transport-security"], label).toBeUndefined();
      }
    });
  }

  it("serves stored images as WebP with nosniff, never as markup", async () => {
    const res = await http.ctx.app.inject({ url: http.imageUrl });
    expect(res.headers["content-type"]).toBe("image/webp");
    expect(res.headers["x-content-type-options"]).toBe("nosniff");
    expect(res.headers["content-disposition"]).toMatch(/^inline; filename="[a-f0-9]{64}\.webp"$/);
  });
});

describe("session cookies", () => {
  async function sessionCookies(shop: Shop, kind: "sign-up" | "sign-in") {
    const email = uniqueEmail(kind);
    const signUp = await shop.ctx.app.inject({
      method: "POST",
      url: "/api/auth/sign-up/email",
      headers: { origin: shop.origin },
      payload: { name: "Cookie Tester", email, password: "Passw0rd!", phone: "5550123" },
    });
    const res =
      kind === "sign-up"
        ? signUp
        : await shop.ctx.app.inject({
            method: "POST",
            url: "/api/auth/sign-in/email",
            headers: { origin: shop.origin },
            payload: { email, password: "Passw0rd!" },
          });
    expect(res.statusCode).toBe(200);
    return ([] as string[]).concat(res.headers["set-cookie"] ?? []);
  }

  for (const kind of ["sign-up", "sign-in"] as const) {
    it(`are HttpOnly and SameSite, without Secure over http (${kind})`, async () => {
      const cookies = await sessionCookies(http, kind);
      expect(cookies.some((c) => c.startsWith("gearhouse.session_token="))).toBe(true);
      for (const cookie of cookies) {
        expect(cookie).toMatch(/;\s*HttpOnly/i);
        expect(cookie).toMatch(/;\s*SameSite=(Lax|Strict)/i);
        expect(cookie).not.toMatch(/;\s*Secure/i);
      }
    });

    it(`are HttpOnly, SameSite and Secure, with the __Secure- prefix, over https (${kind})`, async () => {
      const cookies = await sessionCookies(https, kind);
      expect(cookies.some((c) => c.startsWith("__Secure-gearhouse.session_token="))).toBe(true);
      for (const cookie of cookies) {
        expect(cookie).toMatch(/;\s*HttpOnly/i);
        expect(cookie).toMatch(/;\s*SameSite=(Lax|Strict)/i);
        expect(cookie).toMatch(/;\s*Secure/i);
      }
    });
  }

  it("clears the session cookie on sign-out with the same attributes", async () => {
    const cookie = cookieHeader(await sessionCookies(https, "sign-in"));
    const res = await https.ctx.app.inject({
      method: "POST",
      url: "/api/auth/sign-out",
      headers: { origin: https.origin, cookie },
      payload: {},
    });
    expect(res.statusCode).toBe(200);
    const cleared = ([] as string[]).concat(res.headers["set-cookie"] ?? []);
    const session = cleared.find((c) => c.startsWith("__Secure-gearhouse.session_token="));
    expect(session).toMatch(/Max-Age=0/i);
    expect(session).toMatch(/;\s*HttpOnly/i);
    expect(session).toMatch(/;\s*Secure/i);
  });
});

/**
 * Access control (README.md, Guarantees): an answer that depends on who is signed in (the session,
 * one's orders and profile, the admin's lists, better-auth's answers) says
 * `Cache-Control: no-store`, so neither the browser's cache nor a shared one keeps it for the next
 * person; every /api route is walked, from route-cases.ts. Only the catalog and images, the same
 * for everyone, keep their own caching.
 */
describe("Cache-Control on every /api answer", () => {
  const world = setUpRouteWorld();

  /** Routes whose answers are the same for everyone and say how they may be kept. */
  const OWN_CACHING: Record<string, string> = {
    "GET /api/products": "no-cache",
    "GET /api/products/:id": "no-cache",
    "GET /api/images/:file": "public, max-age=31536000, immutable",
  };
  const directives = (res: LightMyRequestResponse) =>
    String(res.headers["cache-control"] ?? "")
      .split(",")
      .map((d) => d.trim().toLowerCase());
  /** Signed in as the first person the route serves; GET routes also for everyone else. */
  const actorsFor = (method: Method, ok: Record<Actor, number>): Actor[] => {
    if (method === "GET") return ACTORS;
    const served = (["customerA", "admin", "customerB", "visitor"] as const).find((a) => ok[a] < 300);
    return [served ?? "visitor"];
  };

  it("walks the private routes the audit names", () => {
    for (const key of [
      "GET /api/me",
      "GET /api/session",
      "GET /api/profile",
      "GET /api/orders/mine",
      "GET /api/orders/:id",
      "GET /api/orders",
      "GET /api/users",
      "GET /api/admin/overview",
      "GET /api/admin/sales",
    ])
      expect(ROUTES[key], key).toHaveProperty("prepare");
  });

  for (const [key, entry] of Object.entries(ROUTES)) {
    if ("skip" in entry) continue;
    const method = key.split(" ")[0] as Method;
    const own = OWN_CACHING[key];
    it(`${key}: ${own ? `keeps "${own}"` : "no-store"}`, async () => {
      for (const actor of actorsFor(method, entry.expect)) {
        const request = await entry.prepare(world, actor);
        const cookie = world.cookieOf(actor);
        const res = await world.ctx.app.inject({
          method,
          url: request.url,
          headers: { origin: ORIGIN, ...(cookie ? { cookie } : {}), ...request.headers },
          ...(request.payload ? { payload: request.payload } : {}),
        });
        const label = `${actor} (${res.statusCode}): ${res.body.slice(0, 200)}`;
        expect(res.statusCode, label).toBe(entry.expect[actor]);
        if (own && res.statusCode < 300) expect(res.headers["cache-control"], label).toBe(own);
        else expect(directives(res), label).toContain("no-store");
      }
    });
  }

  for (const [path, c] of Object.entries(AUTH_ROUTES)) {
    it(`POST /api/auth${path}: no-store`, async () => {
      const self = await signUp(world.ctx.app, { name: "Cache Tester" });
      const request = await c.prepare(world, self);
      const res = await world.ctx.app.inject({
        method: "POST",
        url: request.url,
        headers: { origin: ORIGIN, ...(c.session ? { cookie: self.cookie } : {}), ...request.headers },
        ...(request.payload ? { payload: request.payload } : {}),
      });
      expect(res.statusCode, res.body.slice(0, 200)).toBe(c.ok);
      expect(directives(res)).toContain("no-store");
    });
  }

  it("keeps the catalog's revalidation on a 304", async () => {
    const first = await world.ctx.app.inject({ url: "/api/products" });
    const again = await world.ctx.app.inject({
      url: "/api/products",
      headers: { "if-none-match": String(first.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
    expect(again.headers["cache-control"]).toBe("no-cache");
  });
});
