import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { secondFactorMessages as m } from "../../../shared/messages/second-factor.js";
import { problemCodes } from "../../../shared/problem-codes.js";
import type { Factors } from "../../../shared/second-factor.js";
import { activityLog, sessions, users } from "../../db/schema/index.js";
import { setUpTestApp } from "../../test/app.js";
import { enrolApp, startApp, totpCode } from "../../test/totp.js";
import {
  cookieHeader,
  fromShop,
  memoryMailer,
  ORIGIN,
  signIn,
  signUp,
  signUpAdmin,
  type TestUser,
} from "../../test/users.js";
import { ENROL_NEXT, sendAdminLink } from "./admin-link.js";
import { FACTOR_TRIES } from "./second-factor.js";

const ctx = setUpTestApp(
  { ADMIN_SECOND_FACTOR: "required" },
  { rateLimit: { max: 10_000, windowSeconds: 60 } },
);

const post = (url: string, cookie: string | undefined, payload: object) =>
  ctx.app.inject({
    method: "POST",
    url,
    headers: { origin: ORIGIN, ...(cookie ? { cookie } : {}) },
    payload,
  });
const verifyApp = (cookie: string | undefined, code: string) =>
  post("/api/auth/two-factor/verify-totp", cookie, { code });
const factors = async (cookie: string) => {
  const res = await ctx.app.inject({ url: "/api/account/factors", headers: { cookie } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<Factors>();
};
const used = new Map<string, Set<string>>();
/**
 * A code of the app not used yet in this file: this step's, or the one after or before (accepted
 * too, by the window of one step either side), whichever the account has not spent. The step after
 * comes before the one before: on a loaded machine the request may reach the server a step later,
 * where the step after is still accepted and the one before no longer is.
 */
function fresh(secret: string): string {
  const spent = used.get(secret) ?? new Set<string>();
  used.set(secret, spent);
  for (const offset of [0, 30_000, -30_000]) {
    const code = totpCode(secret, Date.now() + offset);
    if (!spent.has(code)) {
      spent.add(code);
      return code;
    }
  }
  throw new Error("three codes of one account spent within a step");
}
const earlier = fresh;

/** A customer with an app enrolled through the API, as the profile does it: its secret, codes and new cookie. */
async function withApp(user?: TestUser) {
  const self = user ?? (await signUp(ctx.app));
  const { secret, backupCodes } = await startApp(ctx.app, self);
  const res = await verifyApp(self.cookie, fresh(secret));
  expect(res.statusCode, res.body).toBe(200);
  return { ...self, cookie: cookieHeader(res.headers["set-cookie"]), secret, backupCodes };
}

/** A password sign-in that stops at the second step: the pending cookie. */
async function halfSignIn(user: TestUser) {
  const res = await signIn(ctx.app, user.email, user.password);
  expect(res.statusCode, res.body).toBe(200);
  expect(res.json()).toMatchObject({ twoFactorRedirect: true });
  const cookie = cookieHeader(res.headers["set-cookie"]);
  expect(cookie).not.toContain("session_token");
  return cookie;
}

describe("an authenticator app", () => {
  it("is enrolled with the password and its first code, and listed with its backup codes", async () => {
    const self = await signUp(ctx.app);
    const wrong = await post("/api/auth/two-factor/enable", self.cookie, { password: "Wrong1234" });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().detail).toBe(m.passwordInvalid);
    const { secret, backupCodes } = await startApp(ctx.app, self);
    expect(backupCodes).toHaveLength(10);
    expect((await factors(self.cookie)).app.enabled).toBe(false);
    const res = await verifyApp(self.cookie, fresh(secret));
    expect(res.statusCode, res.body).toBe(200);
    const cookie = cookieHeader(res.headers["set-cookie"]);
    const listed = await factors(cookie);
    expect(listed.app).toEqual({ enabled: true, backupCodesLeft: 10 });
    expect(listed.provedAt).not.toBeNull();
    const [entry] = await ctx.app.db
      .select()
      .from(activityLog)
      .where(and(eq(activityLog.actorId, self.id), eq(activityLog.action, "user.factor_added")));
    expect(entry?.changes).toEqual({ factor: [null, "app"] });
  });

  it("makes a password sign-in wait for a code, which signs in once", async () => {
    const self = await withApp();
    const pending = await halfSignIn(self);
    // The half-signed-in browser is nobody yet.
    expect((await ctx.app.inject({ url: "/api/me", headers: { cookie: pending } })).statusCode).toBe(401);
    const code = fresh(self.secret);
    const ok = await verifyApp(pending, code);
    expect(ok.statusCode, ok.body).toBe(200);
    const cookie = cookieHeader(ok.headers["set-cookie"]);
    expect((await ctx.app.inject({ url: "/api/me", headers: { cookie } })).statusCode).toBe(200);
    // Replayed on the next sign-in, the same code is refused, though still within its 30 seconds.
    const again = await halfSignIn(self);
    const replay = await verifyApp(again, code);
    expect(replay.statusCode).toBe(400);
    expect(replay.json().detail).toBe(m.codeUsed);
  });

  it("refuses a stale code and a wrong one, and a wrong one does not burn the right one", async () => {
    const self = await withApp();
    const pending = await halfSignIn(self);
    const stale = await verifyApp(pending, totpCode(self.secret, Date.now() - 5 * 60_000));
    expect(stale.statusCode).toBe(401);
    expect(stale.json().detail).toBe(m.codeInvalid);
    // A wrong code is wrong again, not "used": its claim was given back.
    for (let i = 0; i < 2; i++)
      expect((await verifyApp(pending, "000000")).json().detail).toBe(m.codeInvalid);
    const ok = await verifyApp(pending, earlier(self.secret));
    expect(ok.statusCode, ok.body).toBe(200);
  });

  it("signs in with a backup code once; the code is spent", async () => {
    const self = await withApp();
    const [code = ""] = self.backupCodes;
    const ok = await post("/api/auth/two-factor/verify-backup-code", await halfSignIn(self), { code });
    expect(ok.statusCode, ok.body).toBe(200);
    const spent = await post("/api/auth/two-factor/verify-backup-code", await halfSignIn(self), { code });
    expect(spent.statusCode).toBe(401);
    expect((await factors(self.cookie)).app.backupCodesLeft).toBe(9);
  });

  it(`stops after ${FACTOR_TRIES} codes tried for one account, whatever the sign-ins`, async () => {
    const self = await withApp();
    let status = 0;
    for (let i = 0; i < FACTOR_TRIES + 1 && status !== 429; i++) {
      const res = await verifyApp(await halfSignIn(self), "000000");
      status = res.statusCode;
      if (status === 429) expect(res.json().detail).toBe(m.tooManyTries);
    }
    expect(status).toBe(429);
    // The right code is refused too while the limit holds.
    const right = await verifyApp(await halfSignIn(self), fresh(self.secret));
    expect(right.statusCode).toBe(429);
  });

  it("is removed with the password, or after a step-up, and the other sessions end", async () => {
    const self = await withApp();
    const other = cookieHeader(
      (
        await post("/api/auth/two-factor/verify-totp", await halfSignIn(self), {
          code: earlier(self.secret),
        })
      ).headers["set-cookie"],
    );
    const wrong = await post("/api/auth/two-factor/disable", self.cookie, { password: "Wrong1234" });
    expect(wrong.statusCode).toBe(400);
    const ok = await post("/api/auth/two-factor/disable", self.cookie, { password: self.password });
    expect(ok.statusCode, ok.body).toBe(200);
    expect((await ctx.app.inject({ url: "/api/me", headers: { cookie: other } })).statusCode).toBe(401);
    const [row] = await ctx.app.db.select().from(users).where(eq(users.id, self.id));
    expect(row?.twoFactorEnabled).toBe(false);

    // Without the password: only a session that proved the factor in the last 10 minutes.
    const second = await withApp();
    await ctx.app.db
      .update(sessions)
      .set({ secondFactorAt: sql`now() - interval '11 minutes'` })
      .where(eq(sessions.userId, second.id));
    const refused = await post("/api/auth/two-factor/disable", second.cookie, {});
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe(problemCodes.stepUpRequired);
    expect((await verifyApp(second.cookie, earlier(second.secret))).statusCode).toBe(200);
    const removed = await post("/api/auth/two-factor/disable", second.cookie, {});
    expect(removed.statusCode, removed.body).toBe(200);
    expect((await factors(second.cookie)).app.enabled).toBe(false);
  });
});

describe("admins and ADMIN_SECOND_FACTOR=required", () => {
  it("refuses every admin route to an admin without a factor, with the enrolment code", async () => {
    const admin = await signUpAdmin(ctx.app);
    const res = await ctx.app.inject({ url: "/api/users", headers: { cookie: admin.cookie } });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: problemCodes.secondFactorEnrolment, detail: m.enrolRequired });
    // Enrolment itself stays open to them.
    expect((await factors(admin.cookie)).app.enabled).toBe(false);
    const enrolled = await withApp(admin);
    const now = await ctx.app.inject({ url: "/api/users", headers: { cookie: enrolled.cookie } });
    expect(now.statusCode, now.body).toBe(200);
  });

  it("lets a password alone reach no admin route, and records the completed sign-in", async () => {
    const admin = await withApp(await signUpAdmin(ctx.app));
    const pending = await halfSignIn(admin);
    expect((await ctx.app.inject({ url: "/api/users", headers: { cookie: pending } })).statusCode).toBe(401);
    const ok = await verifyApp(pending, earlier(admin.secret));
    const cookie = cookieHeader(ok.headers["set-cookie"]);
    expect((await ctx.app.inject({ url: "/api/users", headers: { cookie } })).statusCode).toBe(200);
    const entries = await ctx.app.db
      .select({ action: activityLog.action, changes: activityLog.changes })
      .from(activityLog)
      .where(eq(activityLog.targetId, admin.id));
    expect(entries).toContainEqual({ action: "admin.signed_in", changes: { secondFactor: [null, "code"] } });
  });

  it("asks a session whose factor is older than 10 minutes to step up before a role change", async () => {
    const admin = await withApp(await signUpAdmin(ctx.app));
    const target = await signUp(ctx.app);
    const promote = () =>
      fromShop(ctx.app, "PUT", `/api/users/${target.id}/role`, admin.cookie, { role: "admin" });
    await ctx.app.db
      .update(sessions)
      .set({ secondFactorAt: sql`now() - interval '11 minutes'` })
      .where(eq(sessions.userId, admin.id));
    // Reading is fine; the role change is not, and changes nothing.
    expect((await ctx.app.inject({ url: "/api/users", headers: { cookie: admin.cookie } })).statusCode).toBe(
      200,
    );
    const refused = await promote();
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: problemCodes.stepUpRequired, detail: m.stepUpRequired });
    const [still] = await ctx.app.db.select({ role: users.role }).from(users).where(eq(users.id, target.id));
    expect(still?.role).toBe("user");
    expect((await verifyApp(admin.cookie, earlier(admin.secret))).statusCode).toBe(200);
    expect((await promote()).statusCode).toBe(200);
  });

  it("treats an enrolled admin whose session never proved a factor as one to step up", async () => {
    const admin = await signUpAdmin(ctx.app);
    const { secret } = await enrolApp(ctx.app, admin);
    const res = await ctx.app.inject({ url: "/api/users", headers: { cookie: admin.cookie } });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe(problemCodes.stepUpRequired);
    expect((await verifyApp(admin.cookie, fresh(secret))).statusCode).toBe(200);
    expect((await ctx.app.inject({ url: "/api/users", headers: { cookie: admin.cookie } })).statusCode).toBe(
      200,
    );
  });
});

describe("the way into admin", () => {
  it("an admin link leads on to enrolment where a second factor is required", async () => {
    const mailer = memoryMailer();
    const user = await signUp(ctx.app);
    await (await sendAdminLink(ctx.app.db, mailer, ctx.config, user)).mailed;
    const [mail] = mailer.sent;
    expect(mail?.text).toContain(ENROL_NEXT);
    const link = new URL(mail?.text.match(/https?:\/\/\S+/)?.[0] ?? "http://x");
    expect(link.pathname).toBe("/passwordReset");
    expect(link.searchParams.get("then")).toBe("secondFactor");
  });
});
