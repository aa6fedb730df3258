import { performance } from "node:perf_hooks";
import type { LightMyRequestResponse } from "fastify";
import { describe, expect, it } from "vitest";
import { accountMessages } from "../../../shared/messages/accounts.js";
import { comparableAnswer } from "../answers.js";
import { createTestApp, setUpTestApp } from "../app.js";
import {
  cookieHeader,
  fromShop,
  memoryMailer,
  ORIGIN,
  signIn,
  signUp,
  signUpAdmin,
  uniqueEmail,
} from "../users.js";

/**
 * ASVS V2 and V3 (authentication and sessions). Proved elsewhere and not repeated here:
 * features/accounts/routes.test.ts — a reset link works once ("mails a single-use link…") and an
 * expired one is refused ("refuses an expired token"); features/users/users.test.ts — an admin's
 * removal ends every session of the user ("removes the user, ends every session of theirs…").
 */

const ADMIN = "auth.admin@example.com";
const mailer = memoryMailer();
const ctx = setUpTestApp({}, { mailer, rateLimit: { max: 10_000, windowSeconds: 60 } });

const me = (cookie: string) => ctx.app.inject({ url: "/api/me", headers: { cookie } });
const post = (url: string, payload: object, cookie?: string) =>
  fromShop(ctx.app, "POST", url, cookie, payload);
const review = (cookie: string) => post("/api/reviews", { comment: "Still here?", rating: 3 }, cookie);

describe("sign-in rate limit", () => {
  it("holds with the default configuration however the client rotates its claimed address", async () => {
    // Default AUTH_RATE_LIMIT_PER_MINUTE and TRUST_PROXY off: the limit is keyed by the socket address.
    const limited = await createTestApp({}, { mailer });
    try {
      const limit = limited.config.authRateLimitPerMinute;
      expect(limited.config.trustProxy).toBeUndefined();
      const user = await signUp(limited.app); // the first attempt of the window
      const statuses: number[] = [];
      for (let i = 0; i < limit + 3; i++) {
        const res = await signIn(limited.app, user.email, i === limit + 2 ? user.password : "Wrong0ne!", {
          "x-forwarded-for": `203.0.113.${i}, 10.0.0.${i}`,
          "x-real-ip": `198.51.100.${i}`,
          forwarded: `for=192.0.2.${i}`,
          "true-client-ip": `192.0.2.${i + 100}`,
        });
        statuses.push(res.statusCode);
      }
      expect(statuses.slice(0, limit - 1).every((s) => s === 401)).toBe(true);
      // The right password too: a guesser learns nothing once limited.
      expect(statuses.slice(limit - 1)).toEqual([429, 429, 429, 429]);
      const reset = await limited.app.inject({
        method: "POST",
        url: "/api/auth/request-password-reset",
        headers: { origin: ORIGIN, "x-forwarded-for": "192.0.2.250" },
        payload: { email: user.email },
      });
      expect(reset.statusCode).toBe(429);
      expect(reset.json().detail).toBe(accountMessages.rateLimited);
    } finally {
      await limited.close();
    }
  });
});

describe("sign-in rate limit per account (issue 28, item 1)", () => {
  it("20 addresses guessing one account's password meet a 429, the right password included, and other accounts sign in", async () => {
    // Behind a trusted balancer at 127.0.0.1 (light-my-request's address), with the default limit:
    // each guess comes from an address of its own, as the audit's did, so no address reaches its limit.
    const limited = await createTestApp({ TRUST_PROXY: "127.0.0.1" }, { mailer });
    try {
      const limit = limited.config.authRateLimitPerMinute;
      const user = await signUp(limited.app);
      const other = await signUp(limited.app);
      const guesses: { status: number; detail?: string }[] = [];
      for (let i = 0; i < 20; i++) {
        const res = await limited.app.inject({
          method: "POST",
          url: "/api/auth/sign-in/email",
          // Half through the balancer with a forwarded address, half from other sockets.
          ...(i % 2
            ? { headers: { origin: ORIGIN, "x-forwarded-for": `198.51.100.${i}` } }
            : { headers: { origin: ORIGIN }, remoteAddress: `203.0.113.${i}` }),
          payload: { email: user.email.toUpperCase(), password: `Wrong${i}Guess` },
        });
        guesses.push({ status: res.statusCode, detail: res.json().detail });
      }
      expect(guesses.slice(0, limit).map((g) => g.status)).toEqual(Array(limit).fill(401));
      expect(guesses.slice(limit).map((g) => g.status)).toEqual(Array(20 - limit).fill(429));
      expect(guesses.at(-1)?.detail).toBe(accountMessages.signInAccountRateLimited);

      const right = await signIn(limited.app, user.email, user.password, { "x-forwarded-for": "192.0.2.77" });
      expect(right.statusCode).toBe(429);
      expect(Number(right.headers["retry-after"])).toBeGreaterThan(0);
      expect(right.headers["content-type"]).toContain("application/problem+json");
      // Another account, from one of the guessing addresses, is not held back.
      expect(
        (await signIn(limited.app, other.email, other.password, { "x-forwarded-for": "198.51.100.1" }))
          .statusCode,
      ).toBe(200);
      // An address with no account meets the same limit: the 429 tells nobody who has one.
      const nobody = uniqueEmail("nobody");
      const statuses: number[] = [];
      for (let i = 0; i <= limit; i++)
        statuses.push(
          (await signIn(limited.app, nobody, "Wrong0ne!", { "x-forwarded-for": `198.18.0.${i}` })).statusCode,
        );
      expect(statuses).toEqual([...Array(limit).fill(401), 429]);
    } finally {
      await limited.close();
    }
  });
});

describe("ended sessions are refused at once", () => {
  async function expectSignedOut(cookie: string) {
    expect((await me(cookie)).statusCode).toBe(401);
    expect((await review(cookie)).statusCode).toBe(401);
  }

  it("after sign-out", async () => {
    const user = await signUp(ctx.app);
    expect((await post("/api/auth/sign-out", {}, user.cookie)).statusCode).toBe(200);
    await expectSignedOut(user.cookie);
  });

  it("after a password reset, on every device", async () => {
    const user = await signUp(ctx.app);
    const other = cookieHeader((await signIn(ctx.app, user.email, user.password)).headers["set-cookie"]);
    await post("/api/auth/request-password-reset", { email: user.email });
    const link = mailer.sent.findLast((m) => m.to === user.email)?.text.match(/https?:\/\/\S+/)?.[0] ?? "";
    const token = new URL(link).searchParams.get("token") ?? "";
    expect((await post("/api/auth/reset-password", { token, newPassword: "N3wPassword" })).statusCode).toBe(
      200,
    );
    await expectSignedOut(user.cookie);
    await expectSignedOut(other);
  });

  it("after revoking all sessions, and other devices after a password change", async () => {
    const user = await signUp(ctx.app);
    const other = cookieHeader((await signIn(ctx.app, user.email, user.password)).headers["set-cookie"]);
    const change = await post(
      "/api/auth/change-password",
      { currentPassword: user.password, newPassword: "Chang3dPass", revokeOtherSessions: true },
      user.cookie,
    );
    expect(change.statusCode).toBe(200);
    await expectSignedOut(other);
    const current = cookieHeader(change.headers["set-cookie"]) || user.cookie;
    expect((await me(current)).statusCode).toBe(200);
    expect((await post("/api/auth/revoke-sessions", {}, current)).statusCode).toBe(200);
    await expectSignedOut(current);
  });

  it("after an admin removes the account, and an admin's rights after demotion", async () => {
    const admin = await signUpAdmin(ctx.app, { email: ADMIN });
    const deputy = await signUp(ctx.app);
    const customer = await signUp(ctx.app);
    const role = (id: string, value: "admin" | "user") =>
      ctx.app.inject({
        method: "PUT",
        url: `/api/users/${id}/role`,
        headers: { origin: ORIGIN, cookie: admin.cookie },
        payload: { role: value },
      });
    expect((await role(deputy.id, "admin")).statusCode).toBe(200);
    const users = (cookie: string) => ctx.app.inject({ url: "/api/users", headers: { cookie } });
    expect((await users(deputy.cookie)).statusCode).toBe(200);
    expect((await role(deputy.id, "user")).statusCode).toBe(200);
    expect((await users(deputy.cookie)).statusCode).toBe(403);

    const removed = await ctx.app.inject({
      method: "DELETE",
      url: `/api/users/${customer.id}`,
      headers: { origin: ORIGIN, cookie: admin.cookie },
    });
    expect(removed.statusCode).toBe(204);
    await expectSignedOut(customer.cookie);
    expect((await signIn(ctx.app, customer.email, customer.password)).statusCode).toBe(401);
  });
});

describe("reset tokens", () => {
  it("work exactly once even when the same link is used twice at the same moment", async () => {
    const user = await signUp(ctx.app);
    await post("/api/auth/request-password-reset", { email: user.email });
    const link = mailer.sent.findLast((m) => m.to === user.email)?.text.match(/https?:\/\/\S+/)?.[0] ?? "";
    const token = new URL(link).searchParams.get("token") ?? "";
    const answers = await Promise.all([
      post("/api/auth/reset-password", { token, newPassword: "FirstPassw0rd" }),
      post("/api/auth/reset-password", { token, newPassword: "SecondPassw0rd" }),
    ]);
    const statuses = answers.map((a) => a.statusCode).sort();
    expect(statuses).toEqual([200, 400]);
    const winner = answers[0]?.statusCode === 200 ? "FirstPassw0rd" : "SecondPassw0rd";
    const loser = winner === "FirstPassw0rd" ? "SecondPassw0rd" : "FirstPassw0rd";
    expect((await signIn(ctx.app, user.email, winner)).statusCode).toBe(200);
    expect((await signIn(ctx.app, user.email, loser)).statusCode).toBe(401);
  });
});

/** An answer without what differs per request anyway or by design (the new session's cookie). */
const comparable = (res: LightMyRequestResponse) => comparableAnswer(res, ["set-cookie"]);

describe("who has an account stays private", () => {
  it("answers sign-up the same for a new and a known email (status, body and headers)", async () => {
    const known = await signUp(ctx.app, { name: "Known Owner", phone: "5550111" });
    const body = (email: string) => ({ name: "Prober", email, password: "Pr0berPass", phone: "5550199" });
    const fresh = await post("/api/auth/sign-up/email", body(uniqueEmail("fresh")));
    const taken = await post("/api/auth/sign-up/email", body(known.email));
    expect(comparable(taken)).toEqual(comparable(fresh));
    expect(fresh.json()).toEqual({ ok: true });

    // The known account is untouched and gets no new session; its owner is told by mail.
    expect(cookieHeader(taken.headers["set-cookie"])).toBe("");
    expect((await me(known.cookie)).json()).toMatchObject({ name: "Known Owner", phone: "5550111" });
    expect((await signIn(ctx.app, known.email, "Pr0berPass")).statusCode).toBe(401);
    expect((await signIn(ctx.app, known.email, known.password)).statusCode).toBe(200);
    const mail = mailer.sent.findLast((m) => m.to === known.email);
    expect(mail?.text).toContain(
      "Someone tried to create a Gearhouse account with this email. If it was you, sign in or reset your password:",
    );
  });

  it("takes about as long for a known email as for a new one (the password is hashed in both)", async () => {
    const known = await signUp(ctx.app);
    const timed = async (email: string) => {
      const start = performance.now();
      const res = await post("/api/auth/sign-up/email", {
        name: "Timer",
        email,
        password: "Passw0rd!",
        phone: "5550100",
      });
      expect(res.statusCode).toBe(200);
      return performance.now() - start;
    };
    const fresh: number[] = [];
    const taken: number[] = [];
    // Interleaved, so a busy moment of the machine weighs on both alike.
    for (let i = 0; i < 7; i++) {
      fresh.push(await timed(uniqueEmail("timing")));
      taken.push(await timed(known.email));
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
    // Without the hash the known path would take a few milliseconds against a tenth of a second.
    const ratio = median(taken) / median(fresh);
    expect(ratio, `known ${median(taken).toFixed(1)} ms, new ${median(fresh).toFixed(1)} ms`).toBeGreaterThan(
      0.5,
    );
    expect(ratio).toBeLessThan(2);
  });

  it("answers the reset request the same for a known and an unknown email", async () => {
    const known = await signUp(ctx.app);
    const a = await post("/api/auth/request-password-reset", { email: known.email });
    const b = await post("/api/auth/request-password-reset", { email: uniqueEmail("nobody") });
    expect(comparable(a)).toEqual(comparable(b));
  });
});
