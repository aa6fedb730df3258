import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { accountMessages } from "../../../shared/messages/accounts.js";
import { createTestApp, setUpTestApp } from "../../test/app.js";
import { until } from "../../test/until.js";
import {
  cookieHeader,
  fromShop,
  memoryMailer,
  ORIGIN,
  signIn,
  signUp,
  uniqueEmail,
} from "../../test/users.js";

/** The verification link every sign-up mails (security/email-verification.test.ts follows it). */
const isVerifyMail = (m: { subject: string }) => m.subject.startsWith("Verify");

const mailer = memoryMailer();
const ctx = setUpTestApp(
  { ADMIN_EMAILS: "boss@example.com" },
  { mailer, rateLimit: { max: 1000, windowSeconds: 60 } },
);

const me = (cookie: string) => ctx.app.inject({ method: "GET", url: "/api/me", headers: { cookie } });

describe("sign-up", () => {
  it("creates a customer with name and phone, signs them in, and ignores a role in the body", async () => {
    const email = uniqueEmail("new");
    const res = await ctx.app.inject({
      method: "POST",
      url: "/api/auth/sign-up/email",
      headers: { origin: ORIGIN },
      payload: { name: "Ada Gamer", email, password: "Str0ngPass", phone: "+44 20 7946 0958", role: "admin" },
    });
    expect(res.statusCode).toBe(200);
    const cookie = cookieHeader(res.headers["set-cookie"]);
    const profile = await me(cookie);
    expect(profile.json()).toMatchObject({
      name: "Ada Gamer",
      email,
      phone: "+44 20 7946 0958",
      role: "user",
    });
  });

  it("sets httpOnly, SameSite=Lax session cookies", async () => {
    const res = await ctx.app.inject({
      method: "POST",
      url: "/api/auth/sign-up/email",
      headers: { origin: ORIGIN },
      payload: { name: "Cookie", email: uniqueEmail(), password: "Str0ngPass", phone: "5550100" },
    });
    const cookies = ([] as string[]).concat(res.headers["set-cookie"] ?? []);
    const session = cookies.find((c) => c.startsWith("gearhouse.session_token="));
    expect(session).toBeDefined();
    expect(session).toMatch(/HttpOnly/i);
    expect(session).toMatch(/SameSite=Lax/i);
    expect(session).not.toMatch(/Secure/i);
  });

  it("gives an ADMIN_EMAILS address no role at sign-up: a followed link does (security/admin-by-address.test.ts)", async () => {
    const user = await signUp(ctx.app, { email: "boss@example.com" });
    expect((await me(user.cookie)).json().role).toBe("user");
  });

  it.each([
    [{ name: "" }, accountMessages.nameRequired],
    [{ email: "" }, accountMessages.emailRequired],
    [{ email: "not-an-email" }, accountMessages.emailInvalid],
    [{ password: "" }, accountMessages.passwordRequired],
    [{ password: "Ab1" }, accountMessages.passwordLength],
    [{ password: "alllowercase1" }, accountMessages.passwordPattern],
    [{ password: "NoDigitsHere" }, accountMessages.passwordPattern],
    [{ password: "Has space 1A" }, accountMessages.passwordPattern],
    [{ password: "Aa1aaaaaaaaaaaaaaaaaa" }, accountMessages.passwordPattern],
    [{ phone: "" }, accountMessages.phoneRequired],
    // Issue 28: a name's line breaks became lines of the invoice.
    [{ name: "Mallory\nSeller VAT ID: DE000000000\nPAID - TOTAL DUE: $0" }, accountMessages.nameOneLine],
    [{ name: "Mallory\r\nSeller" }, accountMessages.nameOneLine],
    [{ name: "Mallory\u2028Seller" }, accountMessages.nameOneLine],
    [{ name: "Mallory\u2029Seller" }, accountMessages.nameOneLine],
    [{ name: "Mallory\u0085Seller" }, accountMessages.nameOneLine],
    [{ name: "Mallory\tSeller" }, accountMessages.nameOneLine],
  ])("refuses %o with the spec's message", async (override, message) => {
    const payload = { name: "N", email: uniqueEmail(), password: "Passw0rd", phone: "5550100", ...override };
    const res = await ctx.app.inject({
      method: "POST",
      url: "/api/auth/sign-up/email",
      headers: { origin: ORIGIN },
      payload,
    });
    expect(res.statusCode).toBe(400);
    expect(res.headers["content-type"]).toContain("application/problem+json");
    expect(res.json().errors.map((e: { message: string }) => e.message)).toContain(message);
  });

  it("refuses a name of several lines when the account renames itself, under the name field", async () => {
    const user = await signUp(ctx.app, { name: "Plain Name" });
    const res = await fromShop(ctx.app, "POST", "/api/auth/update-user", user.cookie, {
      name: "Mallory\nSeller VAT ID: DE000000000\nPAID - TOTAL DUE: $0",
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([{ path: "name", message: accountMessages.nameOneLine }]);
    expect((await me(user.cookie)).json().name).toBe("Plain Name");
  });

  it("answers a known email as a new one, without a session, and mails its owner instead", async () => {
    const user = await signUp(ctx.app);
    const res = await ctx.app.inject({
      method: "POST",
      url: "/api/auth/sign-up/email",
      headers: { origin: ORIGIN },
      payload: { name: "Again", email: user.email.toUpperCase(), password: "Passw0rd!", phone: "5550100" },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true });
    expect(cookieHeader(res.headers["set-cookie"])).toBe("");
    const mail = mailer.sent.find((m) => m.to === user.email && !isVerifyMail(m));
    expect(mail?.text).toContain("Someone tried to create a Gearhouse account with this email.");
    expect(mail?.text).toContain(`${ORIGIN}/login`);
    expect(mail?.text).toContain(`${ORIGIN}/passwordReset`);
    expect((await signIn(ctx.app, user.email, "Passw0rd!")).statusCode).toBe(200);
  });
});

describe("GET /api/session", () => {
  const session = (cookie?: string) =>
    ctx.app.inject({ method: "GET", url: "/api/session", headers: cookie ? { cookie } : {} });

  it("answers 200 with a null user to a visitor, and never lets the answer be cached", async () => {
    const res = await session();
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ user: null });
    expect(res.headers["cache-control"]).toBe("private, no-store");
    expect((await session("gearhouse.session_token=forged.value")).json()).toEqual({ user: null });
  });

  it("answers with the signed-in user and their role, as /api/me does", async () => {
    const user = await signUp(ctx.app, { name: "Session Reader", phone: "5550111" });
    const res = await session(user.cookie);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ user: (await me(user.cookie)).json() });
    expect(res.json().user).toMatchObject({ name: "Session Reader", role: "user", phone: "5550111" });
  });
});

describe("sign-in and sign-out", () => {
  it("signs in with the right password only", async () => {
    const user = await signUp(ctx.app);
    const ok = await signIn(ctx.app, user.email, user.password);
    expect(ok.statusCode).toBe(200);
    expect((await me(cookieHeader(ok.headers["set-cookie"]))).statusCode).toBe(200);
    const bad = await signIn(ctx.app, user.email, "Wrong0ne!");
    expect(bad.statusCode).toBe(401);
    expect(bad.json().detail).toBe(accountMessages.invalidCredentials);
  });

  it("refuses a signed-out session at once", async () => {
    const user = await signUp(ctx.app);
    expect((await me(user.cookie)).statusCode).toBe(200);
    const out = await ctx.app.inject({
      method: "POST",
      url: "/api/auth/sign-out",
      headers: { origin: ORIGIN, cookie: user.cookie },
      payload: {},
    });
    expect(out.statusCode).toBe(200);
    const after = await me(user.cookie);
    expect(after.statusCode).toBe(401);
    expect(after.headers["content-type"]).toContain("application/problem+json");
  });

  it("answers 401 to /api/me without a session", async () => {
    expect((await me("")).statusCode).toBe(401);
    expect((await me("gearhouse.session_token=forged.value")).statusCode).toBe(401);
  });
});

describe("rate limit", () => {
  it("holds per socket address even with a changing X-Forwarded-For", async () => {
    const limited = await createTestApp({}, { mailer, rateLimit: { max: 5, windowSeconds: 60 } });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 8; i++) {
        const res = await signIn(limited.app, "nobody@example.com", "Wrong0ne!", {
          "x-forwarded-for": `10.0.0.${i}`,
        });
        statuses.push(res.statusCode);
        if (res.statusCode === 429) {
          expect(res.json().detail).toBe(accountMessages.rateLimited);
          expect(Number(res.headers["retry-after"])).toBeGreaterThan(0);
        }
      }
      expect(statuses.slice(0, 5).every((s) => s === 401)).toBe(true);
      expect(statuses.slice(5)).toEqual([429, 429, 429]);
    } finally {
      await limited.close();
    }
  });
});

describe("password reset", () => {
  const requestReset = (email: string) =>
    ctx.app.inject({
      method: "POST",
      url: "/api/auth/request-password-reset",
      headers: { origin: ORIGIN },
      payload: { email },
    });
  const resetPassword = (token: string, newPassword: string) =>
    ctx.app.inject({
      method: "POST",
      url: "/api/auth/reset-password",
      headers: { origin: ORIGIN },
      payload: { token, newPassword },
    });

  async function tokenFor(email: string): Promise<string> {
    const resetMail = () => mailer.sent.find((m) => m.to === email && !isVerifyMail(m));
    await until(`the reset mail to ${email}`, () => resetMail() !== undefined, 60_000);
    return new URL(resetMail()?.text.match(/https?:\/\/\S+/)?.[0] ?? "").searchParams.get("token") ?? "";
  }

  it("answers the same for a known and an unknown email", async () => {
    const user = await signUp(ctx.app);
    const known = await requestReset(user.email);
    const unknown = await requestReset(uniqueEmail("ghost"));
    expect(known.statusCode).toBe(unknown.statusCode);
    expect(known.body).toBe(unknown.body);
  });

  it("mails a single-use link that sets a new password and ends old sessions", async () => {
    const user = await signUp(ctx.app);
    await requestReset(user.email);
    const token = await tokenFor(user.email);
    const mail = mailer.sent.find((m) => m.to === user.email && !isVerifyMail(m));
    expect(mail?.text).toContain(`${ORIGIN}/passwordReset?token=`);

    const weak = await resetPassword(token, "weakpass");
    expect(weak.statusCode).toBe(400);
    expect(weak.json().detail).toBe(accountMessages.passwordPattern);

    expect((await resetPassword(token, "N3wPassword")).statusCode).toBe(200);
    expect((await me(user.cookie)).statusCode).toBe(401);
    expect((await signIn(ctx.app, user.email, user.password)).statusCode).toBe(401);
    expect((await signIn(ctx.app, user.email, "N3wPassword")).statusCode).toBe(200);

    const reused = await resetPassword(token, "An0therPass");
    expect(reused.statusCode).toBe(400);
    expect(reused.json().detail).toBe(accountMessages.resetLinkInvalid);
  });

  it("refuses an expired token", async () => {
    const user = await signUp(ctx.app);
    await requestReset(user.email);
    const token = await tokenFor(user.email);
    await ctx.database.db.execute(
      sql`update verification set expires_at = now() - interval '1 minute' where identifier like ${`%${token}%`}`,
    );
    const res = await resetPassword(token, "N3wPassword");
    expect(res.statusCode).toBe(400);
    expect((await signIn(ctx.app, user.email, user.password)).statusCode).toBe(200);
  });
});
