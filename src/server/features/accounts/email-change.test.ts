import { randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { MAIL_COLORS } from "../../../shared/brand.js";
import { accountMessages } from "../../../shared/messages/accounts.js";
import { emailChangeMessages as m } from "../../../shared/messages/email-change.js";
import { problemCodes } from "../../../shared/problem-codes.js";
import { accounts, activityLog, emailChanges, users } from "../../db/schema/index.js";
import { setUpTestApp } from "../../test/app.js";
import { paidOrder, placeOrder } from "../../test/payments.js";
import { pdfText } from "../../test/pdf.js";
import { insertProduct } from "../../test/products.js";
import { until } from "../../test/until.js";
import {
  fromShop,
  memoryMailer,
  newSession,
  signIn,
  signUp,
  type TestUser,
  uniqueEmail,
} from "../../test/users.js";
import { sendDueMails } from "../mail/index.js";
import { tokenHash } from "./email-change.js";

/**
 * Change email (issue 34, item 2): the request with the password, the link mailed to the new
 * address, the change when it is followed, the mail to the old address, and the refusals; then the
 * account's orders, invoices, reviews and notices under the new address.
 */

const mailer = memoryMailer();
const ctx = setUpTestApp({}, { mailer, rateLimit: { max: 10_000, windowSeconds: 60 } });
const db = () => ctx.database.db;

const post = (url: string, payload: object, cookie?: string) =>
  fromShop(ctx.app, "POST", url, cookie, payload);
const ask = (user: TestUser, newEmail: string, password = user.password) =>
  post("/api/account/email-change", { newEmail, password }, user.cookie);
const confirm = (token: string, cookie?: string) =>
  post("/api/account/email-change/confirm", { token }, cookie);
const me = (cookie: string) => ctx.app.inject({ url: "/api/me", headers: { cookie } });
const mailsTo = (email: string) => mailer.sent.filter((mail) => mail.to === email);
const withSubject = (email: string, subject: string) =>
  mailsTo(email).filter((mail) => mail.subject === subject);
const linkMailsTo = (email: string) => withSubject(email, m.linkMail.subject);

/** The token of the newest link mailed to `email` (the mail is not awaited: it is waited for). */
async function tokenMailedTo(email: string, count = 1): Promise<string> {
  await until(`link mail ${count} to ${email}`, () => linkMailsTo(email).length >= count);
  const text = linkMailsTo(email).at(-1)?.text ?? "";
  const link = new URL(text.match(/https?:\/\/\S+/)?.[0] ?? "http://x");
  expect(link.pathname).toBe("/confirm-email");
  return link.searchParams.get("token") ?? "";
}

const pendingOf = (userId: string) => db().select().from(emailChanges).where(eq(emailChanges.userId, userId));

describe("changing the email", () => {
  it("mails a link to the new address; the email changes only when it is followed, and the old address is told", async () => {
    const user = await signUp(ctx.app);
    const other = await newSession(ctx.app, user.id);
    const next = uniqueEmail("moved").toUpperCase();

    const res = await ask(user, next);
    expect(res.statusCode, res.body).toBe(202);
    const expiresAt = new Date(res.json().expiresAt).getTime();
    expect(expiresAt - Date.now()).toBeGreaterThan(23.9 * 3600_000);
    expect(expiresAt - Date.now()).toBeLessThanOrEqual(24 * 3600_000);
    const token = await tokenMailedTo(next.toLowerCase());
    expect(withSubject(user.email, m.changedMail.subject)).toEqual([]);
    // Only the token's hash is kept; nothing changed yet.
    const [row] = await pendingOf(user.id);
    expect(row?.tokenHash).toBe(tokenHash(token));
    expect(row?.tokenHash).not.toContain(token);
    expect((await me(user.cookie)).json().email).toBe(user.email);

    const done = await confirm(token, user.cookie);
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toEqual({ email: next.toLowerCase() });
    expect((await me(user.cookie)).json()).toMatchObject({ email: next.toLowerCase(), emailVerified: true });
    expect(await pendingOf(user.id)).toEqual([]);
    // The other session ended; the one that followed the link goes on.
    expect((await me(other)).statusCode).toBe(401);
    // On the activity log, the account's own security event, from the old address to the new.
    const [entry] = await ctx.database.db.select().from(activityLog).where(eq(activityLog.targetId, user.id));
    expect(entry).toMatchObject({
      action: "user.email_changed",
      actorId: user.id,
      actorEmail: user.email,
      changes: { email: [user.email, next.toLowerCase()] },
    });

    await until(
      "the mail to the old address",
      () => withSubject(user.email, m.changedMail.subject).length === 1,
    );
    const told = withSubject(user.email, m.changedMail.subject)[0];
    // Both mails wear the shop's frame, as every account mail does (lib/mail-frame.ts).
    for (const mail of [told, linkMailsTo(next.toLowerCase()).at(-1)])
      expect(mail?.html).toContain(`background-color:${MAIL_COLORS.band}`);
    expect(told?.text).toContain(`${next.slice(0, 1).toLowerCase()}***@example.com`);
    expect(told?.text).not.toContain(next.toLowerCase());
    expect(told?.text).toContain(ctx.config.seller.email);

    expect((await signIn(ctx.app, next, user.password)).statusCode).toBe(200);
    expect((await signIn(ctx.app, user.email, user.password)).statusCode).toBe(401);
    // The old address is free: it can sign up again as a new account.
    const again = await signUp(ctx.app, { email: user.email });
    expect(again.id).not.toBe(user.id);
  });

  it("followed in another browser, every session of the account ends", async () => {
    const user = await signUp(ctx.app);
    const next = uniqueEmail("elsewhere");
    expect((await ask(user, next)).statusCode).toBe(202);
    expect((await confirm(await tokenMailedTo(next))).statusCode).toBe(200);
    expect((await me(user.cookie)).statusCode).toBe(401);
  });

  it("ends the reset links mailed to the old address", async () => {
    const user = await signUp(ctx.app);
    expect((await post("/api/auth/request-password-reset", { email: user.email })).statusCode).toBe(200);
    await until(
      "the reset mail",
      () => withSubject(user.email, "Reset your Gearhouse password").length === 1,
    );
    const resetText = withSubject(user.email, "Reset your Gearhouse password")[0]?.text ?? "";
    const resetToken = new URL(resetText.match(/https?:\/\/\S+/)?.[0] ?? "http://x").searchParams.get(
      "token",
    );
    const next = uniqueEmail("reset");
    expect((await ask(user, next)).statusCode).toBe(202);
    expect((await confirm(await tokenMailedTo(next), user.cookie)).statusCode).toBe(200);
    const reset = await post("/api/auth/reset-password", { token: resetToken, newPassword: "Tak3nOver" });
    expect(reset.statusCode).toBe(400);
    expect((await signIn(ctx.app, next, user.password)).statusCode).toBe(200);
  });

  it("refuses a wrong password at its field, changing nothing and mailing nobody", async () => {
    const user = await signUp(ctx.app);
    const next = uniqueEmail("guess");
    const res = await ask(user, next, "Wr0ngPassword");
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([{ path: "password", message: m.passwordInvalid }]);
    expect(await pendingOf(user.id)).toEqual([]);
    expect(mailsTo(next)).toEqual([]);
  });

  it("refuses the same address and an invalid one at the new email's field", async () => {
    const user = await signUp(ctx.app);
    const same = await ask(user, user.email.toUpperCase());
    expect(same.statusCode).toBe(400);
    expect(same.json().errors).toEqual([{ path: "newEmail", message: m.same }]);
    for (const [newEmail, message] of [
      ["not-an-address", accountMessages.emailInvalid],
      ["", accountMessages.emailRequired],
    ] as const) {
      const res = await ask(user, newEmail);
      expect(res.statusCode).toBe(400);
      expect(res.json().errors[0]).toMatchObject({ path: "newEmail", message });
    }
    expect(await pendingOf(user.id)).toEqual([]);
  });

  it("answers an address another account uses as any other, makes no link and tells that address's owner", async () => {
    const user = await signUp(ctx.app);
    const owner = await signUp(ctx.app);
    // An older request of the account ends, as a newer one would end it.
    const free = uniqueEmail("free");
    expect((await ask(user, free)).statusCode).toBe(202);
    const older = await tokenMailedTo(free);

    const res = await ask(user, owner.email);
    expect(res.statusCode).toBe(202);
    expect(Object.keys(res.json())).toEqual(["expiresAt"]);
    expect(await pendingOf(user.id)).toEqual([]);
    await until("the notice to the owner", () => withSubject(owner.email, m.inUseMail.subject).length === 1);
    expect(linkMailsTo(owner.email)).toEqual([]);
    expect((await confirm(older)).json().code).toBe(problemCodes.emailChangeInvalid);
    expect((await me(owner.cookie)).json().email).toBe(owner.email);
  });

  it("refuses an expired link (410) and a used or replaced one (400), changing nothing", async () => {
    const user = await signUp(ctx.app);
    const first = uniqueEmail("first");
    const second = uniqueEmail("second");
    expect((await ask(user, first)).statusCode).toBe(202);
    const replaced = await tokenMailedTo(first);
    expect((await ask(user, second)).statusCode).toBe(202);
    const token = await tokenMailedTo(second);

    const stale = await confirm(replaced);
    expect(stale.statusCode).toBe(400);
    expect(stale.json()).toMatchObject({ code: problemCodes.emailChangeInvalid, detail: m.linkInvalid });

    await db()
      .update(emailChanges)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(emailChanges.userId, user.id));
    const expired = await confirm(token);
    expect(expired.statusCode).toBe(410);
    expect(expired.json()).toMatchObject({ code: problemCodes.emailChangeExpired, detail: m.linkExpired });
    expect((await me(user.cookie)).json().email).toBe(user.email);

    await db()
      .update(emailChanges)
      .set({ expiresAt: sql`now() + interval '1 hour'` })
      .where(eq(emailChanges.userId, user.id));
    expect((await confirm(token, user.cookie)).statusCode).toBe(200);
    const reused = await confirm(token, user.cookie);
    expect(reused.statusCode).toBe(400);
    expect(reused.json().code).toBe(problemCodes.emailChangeInvalid);
    expect((await me(user.cookie)).json().email).toBe(second);
  });

  it("refuses with 409 an address a sign-up took before the link was followed", async () => {
    const user = await signUp(ctx.app);
    const next = uniqueEmail("raced");
    expect((await ask(user, next)).statusCode).toBe(202);
    const token = await tokenMailedTo(next);
    await signUp(ctx.app, { email: next });
    const res = await confirm(token);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: problemCodes.emailTaken, detail: m.taken });
    expect((await me(user.cookie)).json().email).toBe(user.email);
  });

  it("refuses with 409, not a 500, when a sign-up commits the address while the link is being followed", async () => {
    const user = await signUp(ctx.app);
    const next = uniqueEmail("race");
    expect((await ask(user, next)).statusCode).toBe(202);
    const token = await tokenMailedTo(next);
    // A sign-up's insert, not yet committed, holds the address in user.email's unique index.
    const rival = new pg.Client({ connectionString: ctx.url });
    await rival.connect();
    try {
      await rival.query("begin");
      await rival.query(`insert into "user" (id, name, email) values ($1, 'Rival', $2)`, [
        randomUUID(),
        next,
      ]);
      const answer = confirm(token);
      await until("the link's update to wait for the sign-up", async () => {
        const waiting = await ctx.database.pool.query(
          `select 1 from pg_stat_activity where wait_event_type = 'Lock' and query like 'update "user"%'`,
        );
        return (waiting.rowCount ?? 0) > 0;
      });
      await rival.query("commit");
      const res = await answer;
      expect(res.statusCode, res.body).toBe(409);
      expect(res.json().code).toBe(problemCodes.emailTaken);
    } finally {
      await rival.end();
    }
    expect((await me(user.cookie)).json().email).toBe(user.email);
  });

  it("caps the requests an account makes an hour (AUTH_MAIL_LIMIT_PER_HOUR)", async () => {
    const user = await signUp(ctx.app);
    for (let i = 0; i < ctx.config.authMailLimitPerHour; i++)
      expect((await ask(user, uniqueEmail("cap"))).statusCode).toBe(202);
    const over = await ask(user, uniqueEmail("cap"));
    expect(over.statusCode).toBe(429);
    expect(Number(over.headers["retry-after"])).toBeGreaterThan(0);
  });

  it("says an account without a password (Google's) cannot change its email here", async () => {
    const user = await signUp(ctx.app);
    await db().update(accounts).set({ password: null }).where(eq(accounts.userId, user.id));
    const res = await ask(user, uniqueEmail("google"));
    expect(res.statusCode).toBe(409);
    expect(res.json().detail).toBe(m.noPassword);
  });

  it("needs a session to ask, none to follow the link", async () => {
    const res = await post("/api/account/email-change", {
      newEmail: uniqueEmail("x"),
      password: "Passw0rd!",
    });
    expect(res.statusCode).toBe(401);
    expect((await confirm("not-a-token")).statusCode).toBe(400);
  });
});

describe("the account's orders, invoices, reviews and notices under the new address", () => {
  it("keep working; the invoice keeps the address booked with, and later mails go to the new one", async () => {
    const user = await signUp(ctx.app);
    const paid = await paidOrder(ctx, user);
    const review = await post("/api/reviews", { comment: "Before the move.", rating: 5 }, user.cookie);
    expect(review.statusCode).toBe(201);
    // The outbox has everything so far sent (each test's mails are its own, by address).
    await sendDueMails({ db: db(), mailer: memoryMailer(), publicUrl: ctx.config.publicUrl, maxAttempts: 3 });

    const next = uniqueEmail("after");
    expect((await ask(user, next)).statusCode).toBe(202);
    expect((await confirm(await tokenMailedTo(next), user.cookie)).statusCode).toBe(200);

    // My Orders, the order itself, and its invoice as issued (the address it was booked with).
    const mine = await ctx.app.inject({ url: "/api/orders/mine", headers: { cookie: user.cookie } });
    expect(mine.statusCode).toBe(200);
    expect(JSON.stringify(mine.json())).toContain(paid.id);
    const invoice = await ctx.app.inject({
      url: `/api/orders/${paid.id}/invoice.pdf`,
      headers: { cookie: user.cookie },
    });
    expect(invoice.statusCode).toBe(200);
    const printed = await pdfText(invoice.rawPayload);
    expect(printed).toContain(user.email);
    expect(printed).not.toContain(next);

    // A new order books and pays; a review posts; a back-in-stock notice subscribes.
    const later = await paidOrder(ctx, { ...user, email: next });
    expect(later.email).toBe(next);
    expect(
      (await post("/api/reviews", { comment: "After the move.", rating: 4 }, user.cookie)).statusCode,
    ).toBe(201);
    const soldOut = await insertProduct(db(), {
      name: `Moved notice ${randomUUID()}`,
      price: 12,
      quantity: 0,
    });
    expect((await post("/api/stock-notices", { productId: soldOut }, user.cookie)).statusCode).toBe(201);

    // The order booked before the change: its mails now reach the account's address.
    const unpaid = await placeOrder(ctx, user);
    await db().execute(sql`update "order" set email = ${user.email} where id = ${unpaid.id}`);
    const outbox = memoryMailer();
    await sendDueMails({ db: db(), mailer: outbox, publicUrl: ctx.config.publicUrl, maxAttempts: 3 });
    expect(outbox.sent.filter((mail) => mail.to === user.email)).toEqual([]);
    const toNew = outbox.sent.filter((mail) => mail.to === next);
    expect(toNew.some((mail) => mail.text.includes(unpaid.productName))).toBe(true);
  });
});

describe("the schema of the request", () => {
  it("keeps one request per account", async () => {
    const user = await signUp(ctx.app);
    for (const email of [uniqueEmail("one"), uniqueEmail("two")])
      expect((await ask(user, email)).statusCode).toBe(202);
    const rows = await pendingOf(user.id);
    expect(rows).toHaveLength(1);
    const [account] = await db().select({ email: users.email }).from(users).where(eq(users.id, user.id));
    expect(account?.email).toBe(user.email);
  });
});
