import type { FastifyInstance } from "fastify";
import { OAuth2Server } from "oauth2-mock-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accountMessages } from "../../../shared/messages/accounts.js";
import { createTestApp, setUpTestApp } from "../../test/app.js";
import { cookieHeader, fromShop, signUp, uniqueEmail } from "../../test/users.js";

/** Addresses ADMIN_EMAILS lists, one per test below. */
const OWNER = "google.owner@example.com";
const SQUATTED = "google.squatted@example.com";
const UNVERIFIED = "google.unverified@example.com";

let provider: OAuth2Server;
beforeAll(async () => {
  provider = new OAuth2Server();
  await provider.issuer.keys.generate("RS256");
  await provider.start(0, "127.0.0.1");
});
afterAll(async () => {
  await provider.stop();
});
const ctx = setUpTestApp(
  () => ({
    GOOGLE_CLIENT_ID: "gearhouse-test",
    GOOGLE_CLIENT_SECRET: "secret",
    GOOGLE_ISSUER: provider.issuer.url ?? "",
    ADMIN_EMAILS: [OWNER, SQUATTED, UNVERIFIED].join(","),
  }),
  { rateLimit: { max: 1000, windowSeconds: 60 } },
);

/** The sign-in button's request: better-auth answers where to send the browser. */
const startGoogleSignIn = (app: FastifyInstance) =>
  fromShop(app, "POST", "/api/auth/sign-in/social", undefined, { provider: "google", callbackURL: "/" });

/** Runs the whole authorization-code flow against the local OpenID provider as the given person. */
async function googleSignIn(claims: { email: string; email_verified: boolean; name: string }) {
  const profile = { sub: `google-${claims.email}`, ...claims };
  const sign = (token: { payload: Record<string, unknown> }) =>
    Object.assign(token.payload, profile, { aud: "gearhouse-test" });
  const userinfo = (res: { body: unknown }) => {
    res.body = profile;
  };
  provider.service.on("beforeTokenSigning", sign);
  provider.service.on("beforeUserinfo", userinfo);
  try {
    return await runFlow();
  } finally {
    provider.service.off("beforeTokenSigning", sign);
    provider.service.off("beforeUserinfo", userinfo);
  }
}

async function runFlow() {
  const start = await startGoogleSignIn(ctx.app);
  expect(start.statusCode).toBe(200);
  const stateCookie = cookieHeader(start.headers["set-cookie"]);
  const authorize = await fetch(start.json().url, { redirect: "manual" });
  const callback = new URL(authorize.headers.get("location") ?? "");
  const done = await ctx.app.inject({
    method: "GET",
    url: `${callback.pathname}${callback.search}`,
    headers: { cookie: stateCookie },
  });
  const cookie = cookieHeader(done.headers["set-cookie"]);
  const me = await ctx.app.inject({ method: "GET", url: "/api/me", headers: { cookie } });
  return { done, me };
}

describe("Google sign-in through OpenID Connect", () => {
  it("creates a customer account on the first sign-in", async () => {
    const email = uniqueEmail("google");
    const { done, me } = await googleSignIn({ email, email_verified: true, name: "Gia Google" });
    expect(done.statusCode).toBe(302);
    expect(me.statusCode).toBe(200);
    // Google verified the address: the account may book at once (docs/product.md).
    expect(me.json()).toMatchObject({ email, name: "Gia Google", role: "user", emailVerified: true });
  });

  it("counts an address Google has not verified as unverified", async () => {
    const { me } = await googleSignIn({
      email: uniqueEmail("gunverified"),
      email_verified: false,
      name: "Gus",
    });
    expect(me.json()).toMatchObject({ role: "user", emailVerified: false });
  });

  it("verifies an existing account's address when Google signs into it with the address verified", async () => {
    const existing = await signUp(ctx.app, { name: "Local Val" }, { verified: false });
    const { me } = await googleSignIn({ email: existing.email, email_verified: true, name: "Val on Google" });
    expect(me.json()).toMatchObject({ id: existing.id, emailVerified: true });
  });

  it("signs into an existing account when the provider says the email is verified", async () => {
    const existing = await signUp(ctx.app, { name: "Local Lee" });
    const { me } = await googleSignIn({ email: existing.email, email_verified: true, name: "Lee on Google" });
    expect(me.statusCode).toBe(200);
    expect(me.json().id).toBe(existing.id);
  });

  it("refuses to join an existing account when the email is not verified", async () => {
    const existing = await signUp(ctx.app);
    const { done, me } = await googleSignIn({
      email: existing.email,
      email_verified: false,
      name: "Impostor",
    });
    expect(me.statusCode).toBe(401);
    expect(String(done.headers.location)).toMatch(/error=/);
    // No errorCallbackURL was given: the login page, never better-auth's own (closed) error page.
    expect(new URL(String(done.headers.location), ctx.config.publicUrl).pathname).toBe("/login");
  });
});

describe("Google and ADMIN_EMAILS (admin by address)", () => {
  it("gives role admin to an account Google creates for a listed address it has verified", async () => {
    const { me } = await googleSignIn({ email: OWNER, email_verified: true, name: "Owner" });
    expect(me.json()).toMatchObject({ email: OWNER, role: "admin" });
  });

  it("gives no role to a listed address Google has not verified", async () => {
    const { me } = await googleSignIn({ email: UNVERIFIED, email_verified: false, name: "Maybe" });
    expect(me.json()).toMatchObject({ email: UNVERIFIED, role: "user" });
  });

  it("gives no role when Google joins an account someone else registered with a password", async () => {
    // The squatter knows the account's password: Google vouching for the address proves nothing
    // about who else can sign in, so only a followed admin link (which replaces it) gives the role.
    const squatter = await signUp(ctx.app, { email: SQUATTED.toUpperCase() });
    const { me } = await googleSignIn({ email: SQUATTED, email_verified: true, name: "Owner" });
    expect(me.json()).toMatchObject({ id: squatter.id, role: "user" });
  });
});

describe("Google sign-in when not configured", () => {
  it("answers a clear problem instead of failing silently", async () => {
    const plain = await createTestApp();
    try {
      const res = await startGoogleSignIn(plain.app);
      expect(res.statusCode).toBe(404);
      expect(res.headers["content-type"]).toContain("application/problem+json");
      expect(res.json().detail).toBe(accountMessages.googleNotConfigured);
    } finally {
      await plain.close();
    }
  });
});
