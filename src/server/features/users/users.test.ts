import { randomUUID } from "node:crypto";
import { eq, inArray, sql } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { userMessages } from "../../../shared/messages/users.js";
import type { Order } from "../../../shared/orders.js";
import type { UserPage } from "../../../shared/users.js";
import { orders, products, sessions, users } from "../../db/schema/index.js";
import { HttpProblem } from "../../lib/problem.js";
import { setUpTestApp } from "../../test/app.js";
import { ORIGIN, signIn, signUp } from "../../test/users.js";
import { removeUser, setRole } from "./service.js";

const ADMIN_EMAIL = "users.admin@example.com";

const ctx = setUpTestApp({}, { rateLimit: { max: 10_000, windowSeconds: 60 } });
const admin = ctx.signedUpAdmin({ email: ADMIN_EMAIL, name: "Ada Admin" });
const customer = ctx.signedUpUser({ name: "Cory Customer", phone: "5550142" });

/** Gives role admin to exactly these users, and role user to everyone else. */
async function onlyAdmins(...ids: string[]) {
  await ctx.database.db
    .update(users)
    .set({ role: sql`case when ${inArray(users.id, ids)} then 'admin'::role else 'user'::role end` });
}
beforeEach(async () => {
  await onlyAdmins(admin.id);
});

const call = (method: "GET" | "DELETE" | "PUT", url: string, cookie: string, payload?: object) =>
  ctx.app.inject({ method, url, headers: { cookie, origin: ORIGIN }, ...(payload ? { payload } : {}) });

/** A user row without a session, for the service-level races (sign-up hashes a password: slow). */
async function insertUser(): Promise<string> {
  const id = randomUUID();
  await ctx.database.db.insert(users).values({ id, name: "Racer", email: `${id}@example.com` });
  return id;
}

async function roleOf(id: string) {
  const [row] = await ctx.database.db.select({ role: users.role }).from(users).where(eq(users.id, id));
  return row?.role;
}

async function adminCount() {
  const rows = await ctx.database.db.select({ id: users.id }).from(users).where(eq(users.role, "admin"));
  return rows.length;
}

/** Runs a service call and answers its problem status, or "ok". */
async function outcome(run: () => Promise<unknown>): Promise<number | "ok"> {
  try {
    await run();
    return "ok";
  } catch (error) {
    if (error instanceof HttpProblem) return error.status;
    throw error;
  }
}

/** Five rounds of the last two admins acting on each other at once: each round, exactly one wins. */
async function lastTwoAdminsAtOnce(act: (actorId: string, targetId: string) => Promise<unknown>) {
  for (let round = 0; round < 5; round++) {
    const [a, b] = [await insertUser(), await insertUser()];
    await onlyAdmins(a, b);
    const results = await Promise.all([outcome(() => act(a, b)), outcome(() => act(b, a))]);
    expect(results.sort()).toEqual([409, "ok"]);
    expect(await adminCount()).toBe(1);
  }
}

describe("GET /api/users", () => {
  it("finds a user with id, name, email, phone and role", async () => {
    const res = await call("GET", `/api/users?search=${encodeURIComponent(customer.email)}`, admin.cookie);
    expect(res.statusCode).toBe(200);
    const page: UserPage = res.json();
    expect(page.items).toEqual([
      {
        id: customer.id,
        name: "Cory Customer",
        email: customer.email,
        phone: "5550142",
        role: "user",
        createdAt: expect.any(String),
      },
    ]);
    expect(page.total).toEqual({ count: 1, exact: true });
    const admins: UserPage = (await call("GET", "/api/users?role=admin", admin.cookie)).json();
    expect(admins.items.map((u) => u.id)).toEqual([admin.id]);
  });

  it("is refused to a customer (403) and a visitor (401)", async () => {
    expect((await call("GET", "/api/users", customer.cookie)).statusCode).toBe(403);
    expect((await call("GET", "/api/users", "")).statusCode).toBe(401);
  });
});

describe("DELETE /api/users/:id", () => {
  it("removes the user, ends every session of theirs, and keeps their orders with name and email", async () => {
    const leaving = await signUp(ctx.app, { name: "Lee Leaving" });
    const secondDevice = await signIn(ctx.app, leaving.email, leaving.password);
    const secondCookie = String(secondDevice.headers["set-cookie"]).split(";")[0] ?? "";
    const [product] = await ctx.database.db.select({ id: products.id }).from(products).limit(1);
    const booked = await ctx.app.inject({
      method: "POST",
      url: "/api/orders",
      headers: { cookie: leaving.cookie, origin: ORIGIN },
      payload: { productId: product?.id, quantity: 10, address: "1 Loop Road", phone: "5550123" },
    });
    expect(booked.statusCode).toBe(201);
    const order: Order = booked.json();

    const res = await call("DELETE", `/api/users/${leaving.id}`, admin.cookie);
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe("");

    expect((await call("GET", "/api/me", leaving.cookie)).statusCode).toBe(401);
    expect((await call("GET", "/api/me", secondCookie)).statusCode).toBe(401);
    const left = await ctx.database.db.select().from(sessions).where(eq(sessions.userId, leaving.id));
    expect(left).toEqual([]);
    const found: UserPage = (
      await call("GET", `/api/users?search=${encodeURIComponent(leaving.email)}`, admin.cookie)
    ).json();
    expect(found.items).toEqual([]);

    const [kept] = await ctx.database.db.select().from(orders).where(eq(orders.id, order.id));
    expect(kept).toMatchObject({ userId: null, name: "Lee Leaving", email: leaving.email });
    const listed: Order[] = (await call("GET", `/api/orders?search=${order.id}`, admin.cookie)).json().items;
    expect(listed).toEqual([expect.objectContaining({ name: "Lee Leaving", email: leaving.email })]);
  });

  it("refuses to remove yourself, changing nothing", async () => {
    const other = await signUp(ctx.app);
    await onlyAdmins(admin.id, other.id);
    const res = await call("DELETE", `/api/users/${admin.id}`, admin.cookie);
    expect(res.statusCode).toBe(409);
    expect(res.json().detail).toBe(userMessages.cannotRemoveSelf);
    expect((await call("GET", "/api/me", admin.cookie)).statusCode).toBe(200);
  });

  it("removes another admin while one remains", async () => {
    const second = await signUp(ctx.app);
    await onlyAdmins(admin.id, second.id);
    expect((await call("DELETE", `/api/users/${second.id}`, admin.cookie)).statusCode).toBe(204);
    expect(await adminCount()).toBe(1);
  });

  it("refuses to remove the last admin", async () => {
    // Over HTTP the remover is an admin too, so this only happens in a race; the service decides it.
    const formerAdmin = await insertUser();
    await expect(removeUser(ctx.database.db, formerAdmin, admin.id)).rejects.toMatchObject({
      status: 409,
      detail: userMessages.lastAdminRemove,
    });
    expect(await roleOf(admin.id)).toBe("admin");
  });

  it("leaves exactly one admin when the last two remove each other at the same time", () =>
    lastTwoAdminsAtOnce((actorId, targetId) => removeUser(ctx.database.db, actorId, targetId)));

  it("never leaves the shop without an admin when two admins remove each other over HTTP", async () => {
    const a = await signUp(ctx.app);
    const b = await signUp(ctx.app);
    await onlyAdmins(a.id, b.id);
    const [ab, ba] = await Promise.all([
      call("DELETE", `/api/users/${b.id}`, a.cookie),
      call("DELETE", `/api/users/${a.id}`, b.cookie),
    ]);
    // The loser is refused either by the lock (409) or, if the winner finished first, by its ended session (401).
    expect([ab.statusCode, ba.statusCode].filter((s) => s === 204)).toHaveLength(1);
    expect([ab.statusCode, ba.statusCode].every((s) => [204, 401, 409].includes(s))).toBe(true);
    expect(await adminCount()).toBe(1);
  });

  it("answers 404 for an unknown user, and 403 or 401 to a customer or visitor, changing nothing", async () => {
    expect((await call("DELETE", "/api/users/no-such-user", admin.cookie)).statusCode).toBe(404);
    const target = await signUp(ctx.app);
    expect((await call("DELETE", `/api/users/${target.id}`, customer.cookie)).statusCode).toBe(403);
    expect((await call("DELETE", `/api/users/${target.id}`, "")).statusCode).toBe(401);
    expect((await call("GET", "/api/me", target.cookie)).statusCode).toBe(200);
  });
});

describe("PUT /api/users/:id/role", () => {
  it("makes a user admin and back, taking effect on their very next request", async () => {
    const user = await signUp(ctx.app, { name: "Rory Rising" });
    expect((await call("GET", "/api/users", user.cookie)).statusCode).toBe(403);

    const made = await call("PUT", `/api/users/${user.id}/role`, admin.cookie, { role: "admin" });
    expect(made.statusCode).toBe(200);
    expect(made.json()).toMatchObject({ id: user.id, name: "Rory Rising", email: user.email, role: "admin" });
    expect((await call("GET", "/api/users", user.cookie)).statusCode).toBe(200);

    const again = await call("PUT", `/api/users/${user.id}/role`, admin.cookie, { role: "admin" });
    expect(again.json().role).toBe("admin");

    const removed = await call("PUT", `/api/users/${user.id}/role`, admin.cookie, { role: "user" });
    expect(removed.statusCode).toBe(200);
    expect(removed.json().role).toBe("user");
    expect((await call("GET", "/api/users", user.cookie)).statusCode).toBe(403);
  });

  it("lets an admin step down while another admin remains", async () => {
    const second = await signUp(ctx.app);
    await onlyAdmins(admin.id, second.id);
    const res = await call("PUT", `/api/users/${second.id}/role`, second.cookie, { role: "user" });
    expect(res.statusCode).toBe(200);
    expect(await roleOf(second.id)).toBe("user");
  });

  it("refuses to demote the last admin", async () => {
    const res = await call("PUT", `/api/users/${admin.id}/role`, admin.cookie, { role: "user" });
    expect(res.statusCode).toBe(409);
    expect(res.json().detail).toBe(userMessages.lastAdminDemote);
    expect(await roleOf(admin.id)).toBe("admin");
  });

  it("leaves exactly one admin when the last two demote each other at the same time", () =>
    lastTwoAdminsAtOnce((_actorId, targetId) => setRole(ctx.database.db, targetId, "user")));

  it("refuses an unknown role or user, and customers and visitors, changing nothing", async () => {
    const user = await signUp(ctx.app);
    const bad = await call("PUT", `/api/users/${user.id}/role`, admin.cookie, { role: "owner" });
    expect(bad.statusCode).toBe(400);
    const missing = await call("PUT", "/api/users/no-such-user/role", admin.cookie, { role: "admin" });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().detail).toBe(userMessages.notFound);
    expect(
      (await call("PUT", `/api/users/${user.id}/role`, customer.cookie, { role: "admin" })).statusCode,
    ).toBe(403);
    expect((await call("PUT", `/api/users/${user.id}/role`, user.cookie, { role: "admin" })).statusCode).toBe(
      403,
    );
    expect((await call("PUT", `/api/users/${user.id}/role`, "", { role: "admin" })).statusCode).toBe(401);
    expect(await roleOf(user.id)).toBe("user");
  });
});
