import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { problemCodes } from "../../../shared/problem-codes.js";
import { orders, sessions } from "../../db/schema/index.js";
import { type Method, type Prepared, ROUTES, sendPrepared, setUpRouteWorld } from "../route-cases.js";
import { enrolApp, totpCode } from "../totp.js";
import { cookieHeader, signIn, signUpAdmin } from "../users.js";

/**
 * ASVS V6.3 (issue 32): with ADMIN_SECOND_FACTOR=required, an admin's correct password alone
 * reaches no admin route, whatever the route; and a stolen session cookie whose factor was proved
 * more than 10 minutes ago cannot refund (or do anything else that cannot be undone) without
 * proving it again. Every refusal changes nothing.
 */

const world = setUpRouteWorld({ ADMIN_SECOND_FACTOR: "required" });

const send = (method: Method, request: Prepared, cookie: string | undefined) =>
  sendPrepared(world, method, request, cookie);

/** Every route only an admin may use (the matrix's adminOnly entries). */
const adminRoutes = Object.entries(ROUTES).flatMap(([key, entry]) =>
  "skip" in entry || entry.expect.customerA !== 403 || entry.expect.admin >= 400 ? [] : [{ key, entry }],
);

describe("an admin's password without the second factor", () => {
  it("covers every admin route of the matrix", () => {
    expect(adminRoutes.length).toBeGreaterThan(25);
  });

  it("reaches no admin route without a factor enrolled: 403, the enrolment code, nothing changed", async () => {
    for (const { key, entry } of adminRoutes) {
      const method = key.split(" ")[0] as Method;
      const request = await entry.prepare(world, "admin");
      const before = await world.snapshot(["rate_limit", "session"]);
      const res = await send(method, request, world.cookieOf("admin"));
      expect(res.statusCode, `${key}: ${res.body.slice(0, 200)}`).toBe(403);
      expect(res.json().code, key).toBe(problemCodes.secondFactorEnrolment);
      expect(await world.snapshot(["rate_limit", "session"]), key).toEqual(before);
    }
  });

  it("gets no session with a factor enrolled: the pending sign-in reaches no admin route", async () => {
    const admin = await signUpAdmin(world.ctx.app);
    await enrolApp(world.ctx.app, admin);
    const res = await signIn(world.ctx.app, admin.email, admin.password);
    expect(res.json()).toMatchObject({ twoFactorRedirect: true });
    const pending = cookieHeader(res.headers["set-cookie"]);
    for (const { key, entry } of adminRoutes) {
      const method = key.split(" ")[0] as Method;
      const request = await entry.prepare(world, "admin");
      const answer = await send(method, request, pending);
      expect(answer.statusCode, key).toBe(401);
    }
  });
});

/** What cannot be undone (issue 32, item 3): each needs a factor proved in the last 10 minutes. */
const IRREVERSIBLE = [
  "POST /api/orders/:id/refund",
  "PUT /api/users/:id/role",
  "DELETE /api/users/:id",
  "POST /api/products/:id/stock/adjustments",
];

describe("a stolen admin session cookie", () => {
  it("can do nothing that cannot be undone: refunds, role changes, removals, stock adjustments", async () => {
    const admin = await signUpAdmin(world.ctx.app);
    await enrolApp(world.ctx.app, admin);
    await world.ctx.app.db
      .update(sessions)
      .set({ secondFactorAt: sql`now() - interval '11 minutes'` })
      .where(eq(sessions.userId, admin.id));
    for (const key of IRREVERSIBLE) {
      const entry = ROUTES[key];
      if (!entry || "skip" in entry) throw new Error(`the matrix has no case for ${key}`);
      const request = await entry.prepare(world, "admin");
      const before = await world.snapshot(["rate_limit", "session"]);
      const res = await send(key.split(" ")[0] as Method, request, admin.cookie);
      expect(res.statusCode, `${key}: ${res.body.slice(0, 200)}`).toBe(403);
      expect(res.json().code, key).toBe(problemCodes.stepUpRequired);
      expect(await world.snapshot(["rate_limit", "session"]), key).toEqual(before);
    }
  });

  it("cannot refund without a step-up, and can once the factor is proved again", async () => {
    const admin = await signUpAdmin(world.ctx.app);
    const { secret } = await enrolApp(world.ctx.app, admin);
    // The admin proved the factor at sign-in, 11 minutes before the cookie is used by someone else.
    await world.ctx.app.db
      .update(sessions)
      .set({ secondFactorAt: sql`now() - interval '11 minutes'` })
      .where(eq(sessions.userId, admin.id));
    const entry = ROUTES["POST /api/orders/:id/refund"];
    if (!entry || "skip" in entry) throw new Error("the matrix has no refund case");
    const request = await entry.prepare(world, "admin");
    const orderId = request.url.split("/")[3] ?? "";
    // Reading is allowed: the session proved a factor when it was made.
    expect((await send("GET", { url: "/api/users" }, admin.cookie)).statusCode).toBe(200);
    const before = await world.snapshot(["rate_limit", "session"]);
    const refused = await send("POST", request, admin.cookie);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe(problemCodes.stepUpRequired);
    expect(await world.snapshot(["rate_limit", "session"])).toEqual(before);
    const [order] = await world.ctx.app.db
      .select({ status: orders.status })
      .from(orders)
      .where(eq(orders.id, orderId));
    expect(order?.status).toBe("paid");
    // A wrong code does not step up.
    const wrong = await send(
      "POST",
      { url: "/api/auth/two-factor/verify-totp", payload: { code: "000000" } },
      admin.cookie,
    );
    expect(wrong.statusCode).toBe(401);
    expect((await send("POST", request, admin.cookie)).statusCode).toBe(403);
    // The owner's code does.
    const proved = await send(
      "POST",
      { url: "/api/auth/two-factor/verify-totp", payload: { code: totpCode(secret) } },
      admin.cookie,
    );
    expect(proved.statusCode, proved.body).toBe(200);
    expect((await send("POST", request, admin.cookie)).statusCode).toBe(200);
  });
});
