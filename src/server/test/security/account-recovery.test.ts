import { sql } from "drizzle-orm";
import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accountMessages } from "../../../shared/messages/accounts.js";
import { comparableAnswer } from "../answers.js";
import { createTestApp, setUpTestApp, type TestContext } from "../app.js";
import { until } from "../until.js";
import { cookieHeader, memoryMailer, newSession, ORIGIN, signIn, signUp, uniqueEmail } from "../users.js";

/**
 * Reset links, password changes, mail flooding (README.md, Guarantees; ASVS V2.5, V2.2, V2.1):
 * reset links end when a newer one is sent, on a reset and on a password change; change-password is
 * rate-limited per address and per account and ends the other sessions by default; reset and
 * account-exists mails are capped per recipient address (AUTH_MAIL_LIMIT_PER_HOUR, default 3)
 * without the answer telling.
 */

const mailer = memoryMailer();
// The default mail cap; the address limit out of the way (its own app below checks it).
const ctx = setUpTestApp({}, { mailer, rateLimit: { max: 10_000, windowSeconds: 60 } });

const post = (app: TestContext["app"], url: string, payload: object, headers: Record<string, string> = {}) =>
  app.inject({ method: "POST", url, headers: { origin: ORIGIN, ...headers }, payload });
const me = (cookie: string) => ctx.app.inject({ url: "/api/me", headers: { cookie } });
const requestReset = (email: string) => post(ctx.app, "/api/auth/request-password-reset", { email });
const resetPassword = (token: string, newPassword: string) =>
  post(ctx.app, "/api/auth/reset-password", { token, newPassword });
const mailsTo = (email: string, subject: string) =>
  mailer.sent.filter((m) => m.to === email && m.subject.includes(subject));
const resetMails = (email: string) => mailsTo(email, "Reset your Gearhouse password");
const accountExistsMails = (email: string) => mailsTo(email, "Someone tried to create");
const tokenIn = (text: string) =>
  new URL(text.match(/https?:\/\/\S+/)?.[0] ?? "http://x").searchParams.get("token") ?? "";

/** Asks for a reset link and returns its token, read from the mail (sent before the answer). */
async function newResetLink(email: string): Promise<string> {
  const before = resetMails(email).length;
  expect((await requestReset(email)).statusCode).toBe(200);
  const mails = resetMails(email);
  expect(mails.length).toBe(before + 1);
  return tokenIn(mails.at(-1)?.text ?? "");
}

async function expectLinkRefused(token: string) {
  const res = await resetPassword(token, "L1nkStillWorks");
  expect(res.statusCode).toBe(400);
  expect(res.json().detail).toBe(accountMessages.resetLinkInvalid);
}

const comparable = (res: LightMyRequestResponse) => comparableAnswer(res);

describe("reset links (finding 4)", () => {
  it("a newer link ends the earlier ones", async () => {
    const user = await signUp(ctx.app);
    const first = await newResetLink(user.email);
    const second = await newResetLink(user.email);
    expect(second).not.toBe(first);
    await expectLinkRefused(first);
    expect((await resetPassword(second, "N3wPassword")).statusCode).toBe(200);
    expect((await signIn(ctx.app, user.email, "N3wPassword")).statusCode).toBe(200);
  });

  it("a reset with one link ends every other link of the account", async () => {
    const user = await signUp(ctx.app);
    const mailed = await newResetLink(user.email);
    // Another link made alongside (two requests at one moment), as better-auth makes them.
    const context = await ctx.app.auth.$context;
    const other = "OtherLinkOtherLinkOther0";
    await context.internalAdapter.createVerificationValue({
      identifier: `reset-password:${other}`,
      value: user.id,
      expiresAt: new Date(Date.now() + 60 * 60 * 1000),
    });
    const stranger = await signUp(ctx.app);
    const strangers = await newResetLink(stranger.email);

    expect((await resetPassword(mailed, "N3wPassword")).statusCode).toBe(200);
    await expectLinkRefused(other);
    expect((await signIn(ctx.app, user.email, "N3wPassword")).statusCode).toBe(200);
    // Another account's link is not touched.
    expect((await resetPassword(strangers, "Str4ngerPass")).statusCode).toBe(200);
  });

  it("a password change ends the outstanding links", async () => {
    const user = await signUp(ctx.app);
    const link = await newResetLink(user.email);
    const change = await post(
      ctx.app,
      "/api/auth/change-password",
      { currentPassword: user.password, newPassword: "Chang3dPass", revokeOtherSessions: true },
      { cookie: user.cookie },
    );
    expect(change.statusCode).toBe(200);
    await expectLinkRefused(link);
    expect((await signIn(ctx.app, user.email, "Chang3dPass")).statusCode).toBe(200);
  });
});

describe("change-password (finding 5)", () => {
  const LIMIT = 3;
  let limited: TestContext;
  beforeAll(async () => {
    // The configured limit, small; a trusted proxy at 127.0.0.1 (light-my-request's address), so
    // each request may come from an address of its own.
    limited = await createTestApp(
      { AUTH_RATE_LIMIT_PER_MINUTE: String(LIMIT), TRUST_PROXY: "127.0.0.1" },
      { mailer },
    );
  });
  afterAll(async () => {
    await limited?.close();
  });

  let address = 0;
  const fresh = () => ({ "x-forwarded-for": `198.51.100.${++address}` });
  /** A new customer, signed up from an address of its own (sign-ups count against the address). */
  async function register() {
    const email = uniqueEmail("changer");
    const password = "Passw0rd!";
    const res = await post(
      limited.app,
      "/api/auth/sign-up/email",
      { name: "Changer", email, password, phone: "5550100" },
      fresh(),
    );
    expect(res.statusCode).toBe(200);
    const cookie = cookieHeader(res.headers["set-cookie"]);
    const id: string = (await limited.app.inject({ url: "/api/me", headers: { cookie } })).json().id;
    return { email, password, cookie, id };
  }
  const change = (cookie: string, currentPassword: string, headers = fresh(), newPassword = "Chang3dPass") =>
    post(limited.app, "/api/auth/change-password", { currentPassword, newPassword }, { cookie, ...headers });

  it("limits wrong guesses per account however many addresses they come from, the right password included", async () => {
    const user = await register();
    const statuses: number[] = [];
    for (let i = 0; i <= LIMIT; i++) statuses.push((await change(user.cookie, "Wrong0ne!")).statusCode);
    expect(statuses).toEqual([...Array(LIMIT).fill(400), 429]);

    const right = await change(user.cookie, user.password);
    expect(right.statusCode).toBe(429);
    expect(right.headers["content-type"]).toContain("application/problem+json");
    expect(right.json().detail).toBe(accountMessages.changePasswordRateLimited);
    expect(Number(right.headers["retry-after"])).toBeGreaterThan(0);
    expect(Number(right.headers["retry-after"])).toBeLessThanOrEqual(60);
    expect((await signIn(limited.app, user.email, user.password, fresh())).statusCode).toBe(200);

    // Once the window has passed, the right password is taken.
    await limited.database.db.execute(
      sql`update rate_limit set window_start = now() - interval '61 seconds' where key like 'change-password:%'`,
    );
    expect((await change(user.cookie, user.password)).statusCode).toBe(200);
  });

  it("limits guesses per client address, across accounts", async () => {
    const one = await register();
    const two = await newSession(limited.app, (await register()).id);
    const from = fresh();
    expect((await change(one.cookie, "Wrong0ne!", from)).statusCode).toBe(400);
    expect((await change(one.cookie, "Wrong0ne!", from)).statusCode).toBe(400);
    expect((await change(two, "Wrong0ne!", from)).statusCode).toBe(400);
    const res = await change(one.cookie, one.password, from);
    expect(res.statusCode).toBe(429);
    expect(res.json().detail).toBe(accountMessages.changePasswordRateLimited);
    // The same account from another address is not limited by that one.
    expect((await change(one.cookie, one.password, fresh())).statusCode).toBe(200);
  });

  it("ends the account's other sessions by default; the current one goes on", async () => {
    const user = await register();
    const other = await newSession(limited.app, user.id);
    const stranger = await register();
    const signedIn = async (cookie: string) =>
      (await limited.app.inject({ url: "/api/me", headers: { cookie } })).statusCode;
    expect(await signedIn(other)).toBe(200);

    const res = await change(user.cookie, user.password); // no revokeOtherSessions in the body
    expect(res.statusCode).toBe(200);
    expect(await signedIn(other)).toBe(401);
    // The browser that changed it stays signed in (better-auth hands it its renewed session).
    const current = cookieHeader(res.headers["set-cookie"]);
    expect(current).toContain("gearhouse.session_token=");
    expect(await signedIn(current)).toBe(200);
    expect(await signedIn(stranger.cookie)).toBe(200);
  });

  it("tells the account's address that its password changed, and nothing on a wrong password", async () => {
    const user = await register();
    const changedMails = () => mailsTo(user.email, accountMessages.passwordChangedMail.subject);
    expect((await change(user.cookie, "Wr0ngPassword")).statusCode).toBe(400);
    expect(changedMails()).toEqual([]);
    expect((await change(user.cookie, user.password)).statusCode).toBe(200);
    await until("the password-changed mail", () => changedMails().length === 1);
    const [mail] = changedMails();
    expect(mail?.text).toContain(accountMessages.passwordChangedMail.othersEnded);
    expect(mail?.text).toContain(`${limited.config.publicUrl}/passwordReset`);
    expect(mail?.html).toContain(accountMessages.passwordChangedMail.reset);
  });

  it("keeps the other sessions when the request asks to", async () => {
    const user = await register();
    const other = await newSession(limited.app, user.id);
    const res = await post(
      limited.app,
      "/api/auth/change-password",
      { currentPassword: user.password, newPassword: "Chang3dPass", revokeOtherSessions: false },
      { cookie: user.cookie, ...fresh() },
    );
    expect(res.statusCode).toBe(200);
    expect((await limited.app.inject({ url: "/api/me", headers: { cookie: other } })).statusCode).toBe(200);
  });
});

describe("mail per address is capped (finding 12)", () => {
  const CAP = 3;

  it("sends at most 3 reset mails an hour to one address, answering every request alike", async () => {
    const user = await signUp(ctx.app);
    const answers: LightMyRequestResponse[] = [];
    for (let i = 0; i <= CAP; i++) answers.push(await requestReset(user.email));
    expect(resetMails(user.email)).toHaveLength(CAP);
    const nobody = uniqueEmail("nobody");
    for (let i = 0; i <= CAP; i++) answers.push(await requestReset(nobody));
    for (const answer of answers)
      expect(comparable(answer)).toEqual(comparable(answers[0] as LightMyRequestResponse));

    // The last link sent still works: a request over the cap ends no link.
    const last = tokenIn(resetMails(user.email).at(-1)?.text ?? "");
    expect((await resetPassword(last, "N3wPassword")).statusCode).toBe(200);

    // Another address is not affected.
    const other = await signUp(ctx.app);
    await newResetLink(other.email);
    expect(resetMails(user.email)).toHaveLength(CAP);
  });

  it("makes no reset link over the cap: better-auth is not asked, the answer is its own", async () => {
    const user = await signUp(ctx.app);
    const links = async () => {
      const rows = await ctx.app.db.execute(
        sql`select count(*)::int as n from verification where identifier like 'reset-password:%' and value = ${user.id}`,
      );
      return Number((rows.rows[0] as { n: number }).n);
    };
    for (let i = 0; i < CAP; i++) await newResetLink(user.email);
    // Each link sent ended the one before it.
    expect(await links()).toBe(1);
    const over = await requestReset(user.email);
    expect(over.statusCode).toBe(200);
    expect(over.json()).toEqual({
      status: true,
      message: "If this email exists in our system, check your email for the reset link",
    });
    expect(resetMails(user.email)).toHaveLength(CAP);
    // No unsent link waits in the table: the last mailed one is the only one.
    expect(await links()).toBe(1);
  });

  it("sends at most 3 account-exists mails an hour to one address, answering every sign-up alike", async () => {
    const known = await signUp(ctx.app);
    const body = (email: string) => ({ name: "Prober", email, password: "Pr0berPass", phone: "5550199" });
    const answers: LightMyRequestResponse[] = [];
    for (let i = 0; i <= CAP; i++)
      answers.push(await post(ctx.app, "/api/auth/sign-up/email", body(known.email)));
    for (const answer of answers)
      expect(comparable(answer)).toEqual(comparable(answers[0] as LightMyRequestResponse));
    expect(answers[0]?.json()).toEqual({ ok: true });
    // The mail is handed to the mailer before the answer (and sent without it waiting).
    expect(accountExistsMails(known.email)).toHaveLength(CAP);

    // Another address is not affected.
    const other = await signUp(ctx.app);
    expect((await post(ctx.app, "/api/auth/sign-up/email", body(other.email))).statusCode).toBe(200);
    expect(accountExistsMails(other.email)).toHaveLength(1);
    expect(accountExistsMails(known.email)).toHaveLength(CAP);
    expect((await me(known.cookie)).statusCode).toBe(200);
  });
});
