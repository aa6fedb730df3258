import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { accountMessages } from "../../../shared/messages/accounts.js";
import { orders, profiles, reviews, sessions, users } from "../../db/schema/index.js";
import { setUpTestApp } from "../app.js";
import { bookOrder, paidOrder, post } from "../payments.js";
import { stockedProduct } from "../products.js";
import { fromShop, memoryMailer, newSession, ORIGIN, signIn, signUp, type TestUser } from "../users.js";

/**
 * Deleting an account (issue 34, item 4; docs/product.md, "Deleting your account"): a customer
 * deletes only their own account, whatever they send, and never reads or deletes another's data
 * through it; once deleted, every session of the account, its cookies and its reset links are
 * dead, and a new account on the same address inherits none of it.
 */

const mailer = memoryMailer();
const ctx = setUpTestApp({}, { mailer, rateLimit: { max: 10_000, windowSeconds: 60 } });

const deleteMe = (cookie: string | undefined, payload: object, headers: Record<string, string> = {}) =>
  ctx.app.inject({
    method: "DELETE",
    url: "/api/me",
    headers: { origin: ORIGIN, ...(cookie ? { cookie } : {}), ...headers },
    payload,
  });
const get = (url: string, cookie: string) => ctx.app.inject({ url, headers: { cookie } });

/** A customer with a profile, a review, and a pending and a paid order. */
async function customer(name: string) {
  const user = await signUp(ctx.app, { name, password: `${name}Pass1` });
  expect(
    (await post(ctx, user, "/api/profile", { address: `1 ${name} Road`, city: "Austin", phone: "5550101" }))
      .statusCode,
  ).toBe(201);
  expect(
    (await post(ctx, user, "/api/reviews", { comment: `${name} likes it.`, rating: 4 })).statusCode,
  ).toBe(201);
  const pending = await bookOrder(ctx, user, await stockedProduct(ctx.app.db, 100));
  const paid = await paidOrder(ctx, user);
  return { user, pending, paid };
}

/** What the account holds, for comparing before and after a request. */
async function holdings(user: TestUser) {
  const db = ctx.app.db;
  return {
    user: await db.select().from(users).where(eq(users.id, user.id)),
    profile: await db.select().from(profiles).where(eq(profiles.userId, user.id)),
    orders: await db
      .select({ id: orders.id, status: orders.status })
      .from(orders)
      .where(eq(orders.userId, user.id)),
    reviews: await db
      .select({ id: reviews.id, name: reviews.name })
      .from(reviews)
      .where(eq(reviews.userId, user.id)),
    sessions: (await db.select({ id: sessions.id }).from(sessions).where(eq(sessions.userId, user.id)))
      .length,
  };
}

describe("a customer deletes only their own account", () => {
  it("B with A's password, or naming A anywhere, deletes nothing of A's", async () => {
    const a = await customer("Ada");
    const b = await customer("Bob");
    const before = await holdings(a.user);
    // A's password on B's session: checked against B's account, so refused.
    expect((await deleteMe(b.user.cookie, { password: a.user.password })).statusCode).toBe(400);
    // Fields naming A are not taken (the body has one field; its schema drops the rest).
    const named = await deleteMe(b.user.cookie, {
      password: b.user.password,
      userId: a.user.id,
      id: a.user.id,
      email: a.user.email,
    });
    expect(named.statusCode).toBe(204);
    expect(await holdings(a.user)).toEqual(before);
    expect((await get("/api/me", a.user.cookie)).json().id).toBe(a.user.id);
    // B is gone, and B's old cookie reads none of A's data.
    expect((await get("/api/me", b.user.cookie)).statusCode).toBe(401);
    expect((await get(`/api/orders/${a.paid.id}`, b.user.cookie)).statusCode).toBe(401);
    expect((await get("/api/profile", b.user.cookie)).statusCode).toBe(401);
  });

  it("cannot be done by a visitor or from another site", async () => {
    const a = await customer("Cid");
    const before = await holdings(a.user);
    expect((await deleteMe(undefined, { password: a.user.password })).statusCode).toBe(401);
    const forged = await deleteMe(
      a.user.cookie,
      { password: a.user.password },
      { origin: "https://evil.example" },
    );
    expect(forged.statusCode).toBe(403);
    expect(await holdings(a.user)).toEqual(before);
  });
});

describe("a deleted account is dead everywhere", () => {
  it("its sessions, cookies and reset links no longer work; the new account gets none of it", async () => {
    const a = await customer("Dee");
    const other = await newSession(ctx.app, a.user.id);
    const asked = await fromShop(ctx.app, "POST", "/api/auth/request-password-reset", undefined, {
      email: a.user.email,
    });
    expect(asked.statusCode).toBe(200);
    const mail = mailer.sent.findLast((x) => x.to === a.user.email && x.subject.includes("Reset"));
    const token =
      new URL(mail?.text.match(/https?:\/\/\S+/)?.[0] ?? "http://x").searchParams.get("token") ?? "";
    expect(token).not.toBe("");
    // A change of email asked for before, its link in the new address's inbox.
    const newEmail = `dee.moved.${a.user.id}@example.com`;
    const change = await fromShop(ctx.app, "POST", "/api/account/email-change", a.user.cookie, {
      newEmail,
      password: a.user.password,
    });
    expect(change.statusCode, change.body).toBe(202);
    const changeMail = mailer.sent.findLast((x) => x.to === newEmail);
    const changeToken =
      new URL(changeMail?.text.match(/https?:\/\/\S+/)?.[0] ?? "http://x").searchParams.get("token") ?? "";
    expect(changeToken).not.toBe("");

    expect((await deleteMe(a.user.cookie, { password: a.user.password })).statusCode).toBe(204);
    const confirmed = await fromShop(ctx.app, "POST", "/api/account/email-change/confirm", undefined, {
      token: changeToken,
    });
    expect(confirmed.statusCode).toBe(400);
    expect(await ctx.database.db.$count(users, eq(users.email, newEmail))).toBe(0);

    for (const cookie of [a.user.cookie, other]) {
      for (const url of [
        "/api/me",
        "/api/profile",
        "/api/orders/mine",
        "/api/account/sessions",
        "/api/me/data",
        "/api/me/mail-preferences",
      ])
        expect((await get(url, cookie)).statusCode, url).toBe(401);
      expect((await get("/api/session", cookie)).json().user).toBeNull();
      expect(
        (await post(ctx, { ...a.user, cookie }, "/api/reviews", { comment: "Back!", rating: 5 })).statusCode,
      ).toBe(401);
      expect((await deleteMe(cookie, { password: a.user.password })).statusCode).toBe(401);
    }
    expect((await signIn(ctx.app, a.user.email, a.user.password)).statusCode).toBe(401);
    const reset = await fromShop(ctx.app, "POST", "/api/auth/reset-password", undefined, {
      token,
      newPassword: "Taken0ver",
    });
    expect(reset.statusCode).toBe(400);
    expect(reset.json().detail).toBe(accountMessages.resetLinkInvalid);

    // A new account on the address: the old cookie is still dead, and the kept orders are not its.
    const again = await signUp(ctx.app, { email: a.user.email, password: "Again2shop" });
    expect((await get("/api/me", a.user.cookie)).statusCode).toBe(401);
    expect((await get(`/api/orders/${a.paid.id}`, again.cookie)).statusCode).toBe(404);
    expect((await get(`/api/orders/${a.paid.id}/invoice.pdf`, again.cookie)).statusCode).toBe(404);
    expect((await get("/api/orders/mine", again.cookie)).json().items).toEqual([]);
    // The old reset link does not take the new account either.
    const late = await fromShop(ctx.app, "POST", "/api/auth/reset-password", undefined, {
      token,
      newPassword: "Taken0ver",
    });
    expect(late.statusCode).toBe(400);
    expect((await signIn(ctx.app, a.user.email, "Again2shop")).statusCode).toBe(200);
  });
});
