import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { accountDeletionMessages as m } from "../../../shared/messages/account-deletion.js";
import { accountMessages } from "../../../shared/messages/accounts.js";
import { problemCodes } from "../../../shared/problem-codes.js";
import {
  accounts,
  orders,
  profiles,
  reviews,
  sandboxIntents,
  sessions,
  stockNotices,
  users,
  verifications,
} from "../../db/schema/index.js";
import { setUpTestApp } from "../../test/app.js";
import { bookOrder, confirmWithCard, intentFor, paidOrder, post } from "../../test/payments.js";
import { insertProduct, productStock, stockedProduct } from "../../test/products.js";
import { enrolApp, totpCode } from "../../test/totp.js";
import { until } from "../../test/until.js";
import {
  fromShop,
  memoryMailer,
  newSession,
  ORIGIN,
  signIn,
  signUp,
  signUpAdmin,
  type TestUser,
} from "../../test/users.js";

const mailer = memoryMailer();
const ctx = setUpTestApp({}, { mailer, rateLimit: { max: 10_000, windowSeconds: 60 } });
const admin = ctx.signedUpAdmin({ name: "Deletion Admin" });

const deleteMe = (cookie: string, payload: object = {}) =>
  ctx.app.inject({
    method: "DELETE",
    url: "/api/me",
    headers: { origin: ORIGIN, cookie },
    payload,
  });
const me = (cookie: string) => ctx.app.inject({ url: "/api/me", headers: { cookie } });
const userRow = async (id: string) => (await ctx.app.db.select().from(users).where(eq(users.id, id)))[0];
const orderRow = async (id: string) => (await ctx.app.db.select().from(orders).where(eq(orders.id, id)))[0];
const stockOf = (id: string) => productStock(ctx.app.db, id);

/** A customer with a profile, a review, a back-in-stock subscription, a pending and a paid order. */
async function customerWithEverything(user?: TestUser) {
  const customer = user ?? (await signUp(ctx.app, { name: "Dora Delete" }));
  expect(
    (await post(ctx, customer, "/api/profile", { address: "9 Gone Lane", city: "Austin", phone: "5550177" }))
      .statusCode,
  ).toBe(201);
  const review = await post(ctx, customer, "/api/reviews", { comment: "Solid tools, fast box.", rating: 5 });
  expect(review.statusCode, review.body).toBe(201);
  const productId = await stockedProduct(ctx.app.db, 100);
  const pending = await bookOrder(ctx, customer, productId);
  // The payment page was opened: the order has an intent at the (sandbox) provider.
  const intent = await intentFor(ctx, customer, pending.id);
  const paid = await paidOrder(ctx, customer);
  const soldOut = await insertProduct(ctx.app.db, {
    name: `Sold out ${Math.random()}`,
    image: "/media/products/x.svg",
    price: 20,
    category: "keyboards",
    quantity: 0,
  });
  await ctx.app.db.insert(stockNotices).values({ userId: customer.id, productId: soldOut });
  return { customer, productId, pending, paid, intent, reviewId: review.json().id as string };
}

describe("DELETE /api/me", () => {
  it("refuses a wrong or missing password and changes nothing", async () => {
    const { customer, pending } = await customerWithEverything();
    const wrong = await deleteMe(customer.cookie, { password: "Wrong-pass1" });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().errors).toEqual([{ path: "password", message: m.passwordInvalid }]);
    const missing = await deleteMe(customer.cookie, {});
    expect(missing.statusCode).toBe(400);
    expect(missing.json().errors).toEqual([{ path: "password", message: m.passwordRequired }]);
    expect((await me(customer.cookie)).statusCode).toBe(200);
    expect((await orderRow(pending.id))?.status).toBe("pending");
    expect(await userRow(customer.id)).toBeDefined();
  });

  it("erases the account: unpaid orders removed with stock back and intent cancelled, paid kept", async () => {
    const { customer, productId, pending, paid, reviewId } = await customerWithEverything();
    const otherSession = await newSession(ctx.app, customer.id);
    expect(await stockOf(productId)).toBe(90);
    const res = await deleteMe(customer.cookie, { password: customer.password });
    expect(res.statusCode, res.body).toBe(204);
    // The cookies are cleared in the browser, and refused anyway: the sessions are gone.
    const cleared = [res.headers["set-cookie"]].flat().join("\n");
    expect(cleared).toMatch(/session_token=; Max-Age=0/);
    expect((await me(customer.cookie)).statusCode).toBe(401);
    expect((await me(otherSession)).statusCode).toBe(401);
    expect((await signIn(ctx.app, customer.email, customer.password)).statusCode).toBe(401);
    // The pending order is gone, its units back, its intent cancelled at the provider.
    expect(await orderRow(pending.id)).toBeUndefined();
    expect(await stockOf(productId)).toBe(100);
    const intents = await ctx.app.db
      .select({ status: sandboxIntents.status })
      .from(sandboxIntents)
      .where(eq(sandboxIntents.orderId, pending.id));
    expect(intents.map((i) => i.status)).toEqual(["canceled"]);
    // The paid order stays, as invoiced, with nobody behind it.
    const kept = await orderRow(paid.id);
    expect(kept).toMatchObject({
      status: "paid",
      userId: null,
      name: "Dora Delete",
      email: customer.email,
      address: paid.address,
      phone: paid.phone,
    });
    // The review stays, signed "Former customer".
    const [review] = await ctx.app.db.select().from(reviews).where(eq(reviews.id, reviewId));
    expect(review).toMatchObject({ name: "Former customer", userId: null });
    const shown = await ctx.app.inject({ url: "/api/reviews?limit=50" });
    const names = shown.json().items.filter((r: { id: string }) => r.id === reviewId);
    expect(names.map((r: { name: string }) => r.name)).toEqual(["Former customer"]);
    // Everything else personal is gone.
    const left = await ctx.app.db.execute<{ n: number }>(sql`
      select (select count(*) from ${profiles} where user_id = ${customer.id})
           + (select count(*) from ${sessions} where user_id = ${customer.id})
           + (select count(*) from ${accounts} where user_id = ${customer.id})
           + (select count(*) from ${stockNotices} where user_id = ${customer.id})
           + (select count(*) from ${verifications} where value = ${customer.id})
           + (select count(*) from ${users} where id = ${customer.id})
           + (select count(*) from "idempotency_key" where user_id = ${customer.id}) as n`);
    expect(Number(left.rows[0]?.n)).toBe(0);
    // The address is told.
    await until("the account-deleted mail", () =>
      mailer.sent.some((mail) => mail.to === customer.email && mail.subject === m.mail.subject),
    );
  });

  it("leaves admins the kept order: listed, its invoice and credit note downloadable", async () => {
    const { customer, paid } = await customerWithEverything();
    const refunded = await paidOrder(ctx, customer);
    const refund = await post(ctx, admin, `/api/orders/${refunded.id}/refund`, {});
    expect(refund.statusCode, refund.body).toBe(200);
    expect((await deleteMe(customer.cookie, { password: customer.password })).statusCode).toBe(204);
    const list = await ctx.app.inject({
      url: `/api/orders?search=${encodeURIComponent(customer.email)}`,
      headers: { cookie: admin.cookie },
    });
    expect(list.statusCode, list.body).toBe(200);
    const ids = list.json().items.map((o: { id: string }) => o.id);
    expect(ids).toEqual(expect.arrayContaining([paid.id, refunded.id]));
    const invoice = await ctx.app.inject({
      url: `/api/orders/${paid.id}/invoice.pdf`,
      headers: { cookie: admin.cookie },
    });
    expect(invoice.statusCode, invoice.body.slice(0, 200)).toBe(200);
    expect(invoice.headers["content-type"]).toContain("application/pdf");
    const note = await ctx.app.inject({
      url: `/api/orders/${refunded.id}/credit-note.pdf`,
      headers: { cookie: admin.cookie },
    });
    expect(note.statusCode, note.body.slice(0, 200)).toBe(200);
    // The CSV export lists it too.
    const csv = await ctx.app.inject({
      url: `/api/orders/export.csv?search=${encodeURIComponent(customer.email)}`,
      headers: { cookie: admin.cookie },
    });
    expect(csv.statusCode).toBe(200);
    expect(csv.body).toContain(customer.email);
  });

  it("ends a reset link issued before the deletion", async () => {
    const customer = await signUp(ctx.app);
    const asked = await fromShop(ctx.app, "POST", "/api/auth/request-password-reset", undefined, {
      email: customer.email,
    });
    expect(asked.statusCode).toBe(200);
    const mail = mailer.sent.findLast((x) => x.to === customer.email && x.subject.includes("Reset"));
    const token =
      new URL(mail?.text.match(/https?:\/\/\S+/)?.[0] ?? "http://x").searchParams.get("token") ?? "";
    expect(token).not.toBe("");
    expect((await deleteMe(customer.cookie, { password: customer.password })).statusCode).toBe(204);
    const reset = await fromShop(ctx.app, "POST", "/api/auth/reset-password", undefined, {
      token,
      newPassword: "Back4gain!",
    });
    expect(reset.statusCode).toBe(400);
    expect(reset.json().detail).toBe(accountMessages.resetLinkInvalid);
  });

  it("lets the address sign up again as a new, empty account", async () => {
    const { customer } = await customerWithEverything();
    expect((await deleteMe(customer.cookie, { password: customer.password })).statusCode).toBe(204);
    const again = await signUp(ctx.app, { email: customer.email, password: "Fresh5tart" });
    expect(again.id).not.toBe(customer.id);
    const mine = await ctx.app.inject({ url: "/api/orders/mine", headers: { cookie: again.cookie } });
    expect(mine.statusCode).toBe(200);
    expect(mine.json().items).toEqual([]);
    const profile = await ctx.app.inject({ url: "/api/profile", headers: { cookie: again.cookie } });
    expect(profile.statusCode).toBe(200);
    expect(profile.body).not.toContain("9 Gone Lane");
    const notices = await ctx.app.inject({ url: "/api/stock-notices", headers: { cookie: again.cookie } });
    expect(notices.json().items).toEqual([]);
    const reviewsOf = await ctx.app.inject({ url: "/api/reviews/mine", headers: { cookie: again.cookie } });
    expect(reviewsOf.statusCode).toBe(200);
    expect(JSON.stringify(reviewsOf.json())).not.toContain("Solid tools");
  });

  it("asks an account with an authenticator app for its second factor, and checks it", async () => {
    const customer = await signUp(ctx.app);
    const { secret } = await enrolApp(ctx.app, customer);
    const refused = await deleteMe(customer.cookie, { password: customer.password });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe(problemCodes.stepUpRequired);
    expect(await userRow(customer.id)).toBeDefined();
    const step = (code: string) =>
      fromShop(ctx.app, "POST", "/api/auth/two-factor/verify-totp", customer.cookie, { code });
    expect((await step("000000")).statusCode).toBe(401);
    expect((await deleteMe(customer.cookie, { password: customer.password })).statusCode).toBe(403);
    const proved = await step(totpCode(secret));
    expect(proved.statusCode, proved.body).toBe(200);
    // The proof does not replace the password.
    expect((await deleteMe(customer.cookie, { password: "Wrong-pass1" })).statusCode).toBe(400);
    expect((await deleteMe(customer.cookie, { password: customer.password })).statusCode).toBe(204);
    expect(await userRow(customer.id)).toBeUndefined();
  });

  it("takes a fresh sign-in from an account without a password", async () => {
    const customer = await signUp(ctx.app);
    await ctx.app.db.delete(accounts).where(eq(accounts.userId, customer.id));
    await ctx.app.db
      .update(sessions)
      .set({ createdAt: sql`now() - interval '11 minutes'` })
      .where(eq(sessions.userId, customer.id));
    const stale = await deleteMe(customer.cookie);
    expect(stale.statusCode).toBe(403);
    expect(stale.json().detail).toBe(m.freshSignInRequired);
    const fresh = await newSession(ctx.app, customer.id);
    expect((await deleteMe(fresh)).statusCode).toBe(204);
  });

  it("refuses an admin, the last one included", async () => {
    const res = await deleteMe(admin.cookie, { password: admin.password });
    expect(res.statusCode).toBe(409);
    expect(res.json().detail).toBe(m.adminRefused);
    expect((await me(admin.cookie)).statusCode).toBe(200);
    const another = await signUpAdmin(ctx.app);
    expect((await deleteMe(another.cookie, { password: another.password })).statusCode).toBe(409);
  });

  it("keeps an order paid while the intent was being cancelled: its payment refunded, nothing lost", async () => {
    const customer = await signUp(ctx.app);
    const productId = await stockedProduct(ctx.app.db, 50);
    const order = await bookOrder(ctx, customer, productId);
    // The card was accepted at the provider, but the shop never heard (/pay not called).
    const intentId = await confirmWithCard(ctx, customer, order.id);
    expect((await deleteMe(customer.cookie, { password: customer.password })).statusCode).toBe(204);
    expect(await orderRow(order.id)).toBeUndefined();
    // The release found it succeeded and refunded it, as for any removed order.
    const [intent] = await ctx.app.db.select().from(sandboxIntents).where(eq(sandboxIntents.id, intentId));
    expect(intent?.refundId).toBeTruthy();
  });
});
