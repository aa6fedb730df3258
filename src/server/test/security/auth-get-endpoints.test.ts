import { describe, expect, it } from "vitest";
import { signedUpInBeforeAll } from "../app.js";
import { AUTH_GET_PATHS, authEndpointPaths, authUrl, setUpRouteWorld } from "../route-cases.js";

/**
 * Access control (README.md, Guarantees): better-auth's GET endpoints are allow-listed like its
 * POST ones. The shop serves Google's OAuth callback and the email verification link only
 * (security/email-verification.test.ts); every other GET endpoint better-auth has
 * (read from `app.auth.api`, so a new one in an upgrade is covered) answers 404 problem+json, to a
 * visitor and to a signed-in customer, whatever the query, and changes nothing. Among them is
 * better-auth's error page, which put attacker-chosen text on the shop's origin beside a link to
 * another site.
 */

const EVIL_TEXT = "Your account is locked, call evil.example";
/** Queries the closed endpoints might act on or show: tokens, callback addresses, error texts. */
const QUERIES = [
  "",
  `?error=account_locked&error_description=${encodeURIComponent(EVIL_TEXT)}`,
  "?token=x&callbackURL=https%3A%2F%2Fevil.example%2F",
  "?disableCookieCache=true&disableRefresh=true",
];

const world = setUpRouteWorld();
const customer = signedUpInBeforeAll(() => world.ctx.app, { name: "Get Tester" });

const closedPaths = () =>
  authEndpointPaths(world.ctx.app, "GET").filter(
    (path) => !AUTH_GET_PATHS.includes(authUrl(path).slice("/api/auth".length)),
  );

describe("better-auth's GET endpoints", () => {
  it("serves only endpoints better-auth has", () => {
    const served = authEndpointPaths(world.ctx.app, "GET").map((path) => authUrl(path));
    for (const path of AUTH_GET_PATHS) expect(served, path).toContain(`/api/auth${path}`);
  });

  it("closes the ones the shop does not use, the error page among them", () => {
    expect(closedPaths()).toEqual(
      expect.arrayContaining([
        "/error",
        "/get-session",
        "/list-sessions",
        "/reset-password/:token",
        "/delete-user/callback",
        "/account-info",
        "/list-accounts",
        "/ok",
      ]),
    );
  });

  it("answers 404 problem+json to every closed one, visitor or signed in, whatever the query; nothing changes", async () => {
    const before = await world.snapshot();
    let checked = 0;
    for (const path of closedPaths()) {
      for (const query of QUERIES) {
        for (const cookie of [undefined, customer.cookie]) {
          for (const method of ["GET", "HEAD"] as const) {
            const url = `${authUrl(path)}${query}`;
            const res = await world.ctx.app.inject({ method, url, headers: cookie ? { cookie } : {} });
            const label = `${method} ${url}${cookie ? " (signed in)" : ""}: ${res.statusCode} ${res.body.slice(0, 200)}`;
            expect(res.statusCode, label).toBe(404);
            expect(res.headers["content-type"], label).toContain("application/problem+json");
            expect(res.headers["set-cookie"], label).toBeUndefined();
            expect(res.body, label).not.toContain("evil.example");
            if (method === "GET")
              expect(res.json(), label).toMatchObject({ status: 404, title: "Not Found" });
            checked += 1;
          }
        }
      }
    }
    expect(checked).toBeGreaterThanOrEqual(8 * QUERIES.length * 4);
    expect(await world.snapshot()).toEqual(before);
    // The customer's session was neither read out nor ended.
    const me = await world.ctx.app.inject({ url: "/api/me", headers: { cookie: customer.cookie } });
    expect(me.statusCode).toBe(200);
  });

  it("refuses the audit's example: the error page with a text of the attacker's", async () => {
    const res = await world.ctx.app.inject({
      url: `/api/auth/error?error_description=${encodeURIComponent(EVIL_TEXT)}`,
    });
    expect(res.statusCode).toBe(404);
    expect(res.headers["content-type"]).toContain("application/problem+json");
    expect(res.body).not.toContain(EVIL_TEXT);
  });

  it("still serves Google's OAuth callback, and sends a failed one to the login page", async () => {
    // Without a state the callback cannot know the client's errorCallbackURL: it falls back to the
    // shop's login page (which says Google sign-in failed), never to the closed error page.
    const res = await world.ctx.app.inject({ url: "/api/auth/callback/google?code=x" });
    expect(res.statusCode).toBe(302);
    const location = new URL(String(res.headers.location));
    expect(location.origin).toBe(new URL(world.ctx.config.publicUrl).origin);
    expect(location.pathname).toBe("/login");
    expect(location.searchParams.get("error")).toBeTruthy();
  });
});
