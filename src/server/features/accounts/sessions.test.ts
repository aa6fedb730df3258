import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { sessionMessages } from "../../../shared/messages/sessions.js";
import type { SessionList } from "../../../shared/sessions.js";
import { activityLog, sessions } from "../../db/schema/index.js";
import { setUpTestApp } from "../../test/app.js";
import { cookieHeader, fromShop, ORIGIN, signIn, signUp, type TestUser } from "../../test/users.js";
import { browserName } from "./browser-name.js";

const ctx = setUpTestApp({}, { rateLimit: { max: 10_000, windowSeconds: 60 } });
const admin = ctx.signedUpAdmin({ name: "Sessions Admin" });
const stranger = ctx.signedUpUser({ name: "Sessions Stranger" });

const FIREFOX = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0";
const SAFARI_IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1";

/** A new customer signed in from `agents` (one session each, the first being signUp's own). */
async function customerWithSessions(...agents: string[]) {
  const user = await signUp(ctx.app);
  const cookies: string[] = [];
  for (const agent of agents) {
    const res = await signIn(ctx.app, user.email, user.password, {
      "user-agent": agent,
      "x-forwarded-for": "203.0.113.7",
    });
    expect(res.statusCode).toBe(200);
    cookies.push(cookieHeader(res.headers["set-cookie"]));
  }
  return { user, cookies };
}

const me = (cookie: string) => ctx.app.inject({ method: "GET", url: "/api/me", headers: { cookie } });
const list = async (cookie: string) => {
  const res = await ctx.app.inject({ method: "GET", url: "/api/account/sessions", headers: { cookie } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<SessionList>();
};

describe("a user's signed-in sessions", () => {
  it("lists each with its browser, address and last use, and marks this one", async () => {
    const { user, cookies } = await customerWithSessions(FIREFOX, SAFARI_IPHONE);
    const [firefox = "", iphone = ""] = cookies;
    const listed = await list(iphone);
    expect(listed.total).toBe(3);
    expect(listed.items.map((s) => [s.browser, s.current])).toEqual(
      expect.arrayContaining([
        ["Firefox on Linux", false],
        ["Safari on iOS", true],
      ]),
    );
    expect(listed.items.filter((s) => s.current)).toHaveLength(1);
    expect(listed.items.every((s) => !Number.isNaN(Date.parse(s.lastSeenAt)))).toBe(true);
    // Another user's list has none of them.
    const theirs = await list(firefox);
    expect(theirs.items.map((s) => s.id).sort()).toEqual(listed.items.map((s) => s.id).sort());
    expect((await list(stranger.cookie)).items.map((s) => s.id)).not.toContain(listed.items[0]?.id);
    expect(user.email).toContain("@");
  });

  it("ends one other session at once, refuses the one in use and anyone else's", async () => {
    const { cookies } = await customerWithSessions(FIREFOX, SAFARI_IPHONE);
    const [firefox = "", iphone = ""] = cookies;
    const listed = await list(iphone);
    const target = listed.items.find((s) => s.browser === "Firefox on Linux");
    const current = listed.items.find((s) => s.current);
    if (!target || !current) throw new Error("sessions missing");
    const end = (cookie: string, id: string) =>
      fromShop(ctx.app, "DELETE", `/api/account/sessions/${id}`, cookie);

    const foreign = await end(stranger.cookie, target.id);
    expect(foreign.statusCode).toBe(404);
    expect((await me(firefox)).statusCode).toBe(200);
    const self = await end(iphone, current.id);
    expect(self.statusCode).toBe(409);
    expect(self.json<{ detail: string }>().detail).toBe(sessionMessages.current);

    expect((await end(iphone, target.id)).statusCode).toBe(204);
    expect((await me(firefox)).statusCode).toBe(401);
    expect((await me(iphone)).statusCode).toBe(200);
    expect((await end(iphone, target.id)).statusCode).toBe(404);
    expect((await list(iphone)).items.map((s) => s.id)).not.toContain(target.id);
  });

  it("ends all the others and keeps this one", async () => {
    const { user, cookies } = await customerWithSessions(FIREFOX, SAFARI_IPHONE, FIREFOX);
    const [a = "", b = "", c = ""] = cookies;
    const res = await fromShop(ctx.app, "POST", "/api/account/sessions/end-others", b);
    expect(res.json()).toEqual({ ended: 3 });
    expect((await me(a)).statusCode).toBe(401);
    expect((await me(c)).statusCode).toBe(401);
    expect((await me(user.cookie)).statusCode).toBe(401);
    expect((await me(b)).statusCode).toBe(200);
    expect((await list(b)).total).toBe(1);
  });

  it("ends the others when the password changes", async () => {
    const { user, cookies } = await customerWithSessions(FIREFOX);
    const [firefox = ""] = cookies;
    const res = await fromShop(ctx.app, "POST", "/api/auth/change-password", firefox, {
      currentPassword: user.password,
      newPassword: "Changed123!",
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((await me(user.cookie)).statusCode).toBe(401);
  });

  it("writes the last use at most once in five minutes", async () => {
    const { user } = await customerWithSessions();
    const lastSeen = async () =>
      (await ctx.database.db.select().from(sessions).where(eq(sessions.userId, user.id)))[0]?.updatedAt;
    const setLastSeen = (minutesAgo: number) =>
      ctx.database.db
        .update(sessions)
        .set({ updatedAt: new Date(Date.now() - minutesAgo * 60_000) })
        .where(eq(sessions.userId, user.id));
    await setLastSeen(2);
    const recent = await lastSeen();
    expect((await me(user.cookie)).statusCode).toBe(200);
    expect(await lastSeen()).toEqual(recent);
    await setLastSeen(30);
    const before = Date.now();
    expect((await me(user.cookie)).statusCode).toBe(200);
    expect((await lastSeen())?.getTime()).toBeGreaterThanOrEqual(before - 1_000);
  });
});

describe("an admin ends a user's sessions", () => {
  const endAll = (who: TestUser, id: string) =>
    fromShop(ctx.app, "DELETE", `/api/users/${id}/sessions`, who.cookie);

  it("signs the user out everywhere, on the record", async () => {
    const { user, cookies } = await customerWithSessions(FIREFOX);
    const res = await endAll(admin, user.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ ended: 2 });
    expect((await me(user.cookie)).statusCode).toBe(401);
    expect((await me(cookies[0] ?? "")).statusCode).toBe(401);
    const entries = await ctx.database.db
      .select()
      .from(activityLog)
      .where(and(eq(activityLog.targetId, user.id), eq(activityLog.action, "user.sessions_ended")));
    expect(entries.map((e) => [e.actorEmail, e.changes])).toEqual([[admin.email, { sessions: [2, 0] }]]);
  });

  it("is for admins only, and a user that does not exist is a 404", async () => {
    const { user } = await customerWithSessions();
    expect((await endAll(stranger, user.id)).statusCode).toBe(403);
    expect((await me(user.cookie)).statusCode).toBe(200);
    expect((await endAll(admin, "no-such-user")).statusCode).toBe(404);
    const anonymous = await ctx.app.inject({
      method: "DELETE",
      url: `/api/users/${user.id}/sessions`,
      headers: { origin: ORIGIN },
    });
    expect(anonymous.statusCode).toBe(401);
  });
});

describe("browserName", () => {
  it.each([
    [FIREFOX, "Firefox on Linux"],
    [SAFARI_IPHONE, "Safari on iOS"],
    [
      "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 Edg/126.0.0.0",
      "Edge on Windows",
    ],
    [
      "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36",
      "Chrome on macOS",
    ],
    [
      "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36",
      "Chrome on Android",
    ],
    ["curl/8.5.0", null],
    [null, null],
  ])("names %s as %s", (agent, name) => {
    expect(browserName(agent)).toBe(name);
  });
});
