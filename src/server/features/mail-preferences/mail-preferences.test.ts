import { eq, inArray, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { orderNumber } from "../../../shared/format.js";
import { mailMessages } from "../../../shared/messages/mail.js";
import { mailPreferenceMessages } from "../../../shared/messages/mail-preferences.js";
import { type MailKind, mailOutbox, products, users } from "../../db/schema/index.js";
import type { Mail } from "../../lib/mailer.js";
import { setUpTestApp } from "../../test/app.js";
import { paidOrder, placeOrder, post } from "../../test/payments.js";
import { stockedProduct } from "../../test/products.js";
import { fromShop, memoryMailer, ORIGIN, signUp, type TestUser } from "../../test/users.js";
import { DROPPED, sendDueMails } from "../mail/index.js";
import { oneClickUnsubscribeUrl, reminderUnsubscribeToken, unsubscribePageUrl } from "./token.js";

const ctx = setUpTestApp();
const admin = ctx.signedUpAdmin();
const db = () => ctx.database.db;
const secret = () => ctx.config.authSecret;
const publicUrl = () => ctx.config.publicUrl;

/** Sends every due mail as the app's outbox plugin does, with the optional mails' links. */
async function send(): Promise<Mail[]> {
  const mailer = memoryMailer();
  await sendDueMails(
    {
      db: db(),
      mailer,
      publicUrl: publicUrl(),
      maxAttempts: 3,
      reminderLinks: (userId) => ({
        oneClick: oneClickUnsubscribeUrl(publicUrl(), secret(), userId),
        page: unsubscribePageUrl(publicUrl(), secret(), userId),
      }),
    },
    { limit: 10_000 },
  );
  return mailer.sent;
}

const preferences = (user: TestUser) =>
  ctx.app.inject({ method: "GET", url: "/api/me/mail-preferences", headers: { cookie: user.cookie } });
const setReminders = (user: TestUser, reminderMails: boolean) =>
  fromShop(ctx.app, "PUT", "/api/me/mail-preferences", user.cookie, { reminderMails });
const remindersOf = async (userId: string) =>
  (await db().select({ on: users.reminderMails }).from(users).where(eq(users.id, userId)))[0]?.on;

/** A payment reminder queued for `orderId`, as the reminder job queues it. */
const queueReminder = (orderId: string) =>
  db().insert(mailOutbox).values({ kind: "payment_reminder", orderId });

/**
 * `user` asks about a sold-out product, and its mail is queued as the back-in-stock job queues it
 * when the product is back (features/stock-notices/job.ts: an outbox row naming the subscription).
 */
async function queueBackInStockMail(user: TestUser): Promise<string> {
  const productId = await stockedProduct(db(), 0);
  const asked = await fromShop(ctx.app, "POST", "/api/stock-notices", user.cookie, { productId });
  expect(asked.statusCode, asked.body).toBe(201);
  await db().insert(mailOutbox).values({ kind: "back_in_stock", orderId: asked.json().id });
  const [product] = await db()
    .select({ name: products.name })
    .from(products)
    .where(eq(products.id, productId));
  return product?.name ?? "";
}

/** The outbox rows of `kind` about these orders or subscriptions' mails, newest last. */
const rowsOf = (kind: MailKind, orderIds: string[]) =>
  db()
    .select()
    .from(mailOutbox)
    .where(sql`${mailOutbox.kind} = ${kind} and ${inArray(mailOutbox.orderId, orderIds)}`);

describe("the customer's mail preferences", () => {
  it("reads and sets the account's own reminder switch, on by default; a visitor gets 401", async () => {
    const customer = await signUp(ctx.app);
    expect((await preferences(customer)).json()).toEqual({ reminderMails: true });
    const off = await setReminders(customer, false);
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json()).toEqual({ reminderMails: false });
    expect((await preferences(customer)).json()).toEqual({ reminderMails: false });
    expect(await remindersOf(customer.id)).toBe(false);
    expect((await setReminders(customer, true)).json()).toEqual({ reminderMails: true });
    expect((await ctx.app.inject({ url: "/api/me/mail-preferences" })).statusCode).toBe(401);
    const bad = await fromShop(ctx.app, "PUT", "/api/me/mail-preferences", customer.cookie, {
      reminderMails: "no",
    });
    expect(bad.statusCode).toBe(400);
  });

  it("with reminders off, no payment reminder or back-in-stock mail goes, while the booking, receipt and shipping mails do", async () => {
    await send();
    const customer = await signUp(ctx.app, { name: "Quiet Customer" });
    const unpaid = await placeOrder(ctx, customer);
    const paid = await paidOrder(ctx, customer);
    const shipped = await post(ctx, admin, `/api/orders/${paid.id}/ship`, {
      carrier: "UPS",
      trackingNumber: "1Z9",
    });
    expect(shipped.statusCode, shipped.body).toBe(200);
    await queueReminder(unpaid.id);
    const productName = await queueBackInStockMail(customer);
    // Queued while on, turned off before the sender takes them: the switch is read when a mail is sent.
    expect((await setReminders(customer, false)).statusCode).toBe(200);

    const subjects = (await send()).filter((m) => m.to === customer.email).map((m) => m.subject);
    expect(subjects).toEqual(
      expect.arrayContaining([
        mailMessages.placed.subject(unpaid.productName, orderNumber(unpaid.id)),
        mailMessages.receipt.subject(paid.productName, orderNumber(paid.id)),
        mailMessages.shipped.subject(paid.productName, orderNumber(paid.id)),
      ]),
    );
    expect(subjects).not.toContain(mailMessages.reminder.subject(unpaid.productName, orderNumber(unpaid.id)));
    expect(subjects).not.toContain(mailMessages.backInStock.subject(productName));
    const [reminder] = await rowsOf("payment_reminder", [unpaid.id]);
    expect(reminder).toMatchObject({ sentAt: null, lastError: DROPPED.remindersOff });
    expect(reminder?.droppedAt).toBeInstanceOf(Date);
    const [notice] = await db()
      .execute<{ last_error: string; dropped_at: Date | null }>(sql`
      select m.last_error, m.dropped_at from ${mailOutbox} m join stock_notice n on n.id = m.order_id
      where m.kind = 'back_in_stock' and n.user_id = ${customer.id}`)
      .then((r) => r.rows);
    expect(notice?.last_error).toBe(DROPPED.remindersOff);
    expect(notice?.dropped_at).not.toBeNull();
  });

  it("puts List-Unsubscribe (one click) and a footer link on the optional mails only", async () => {
    await send();
    const customer = await signUp(ctx.app, { name: "Loud Customer" });
    const unpaid = await placeOrder(ctx, customer);
    const paid = await paidOrder(ctx, customer);
    await queueReminder(unpaid.id);
    const productName = await queueBackInStockMail(customer);
    const mails = (await send()).filter((m) => m.to === customer.email);
    const bySubject = (subject: string) => {
      const mail = mails.find((m) => m.subject === subject);
      if (!mail) throw new Error(`no mail "${subject}" in ${mails.map((m) => m.subject).join(", ")}`);
      return mail;
    };
    const oneClick = oneClickUnsubscribeUrl(publicUrl(), secret(), customer.id);
    const page = unsubscribePageUrl(publicUrl(), secret(), customer.id);
    for (const optional of [
      bySubject(mailMessages.reminder.subject(unpaid.productName, orderNumber(unpaid.id))),
      bySubject(mailMessages.backInStock.subject(productName)),
    ]) {
      expect(optional.headers).toEqual({
        "List-Unsubscribe": `<${oneClick}>`,
        "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
      });
      expect(optional.html).toContain(`href="${page.replaceAll("&", "&amp;")}"`);
      expect(optional.text).toContain(mailPreferenceMessages.footerLink);
    }
    for (const always of [
      bySubject(mailMessages.placed.subject(unpaid.productName, orderNumber(unpaid.id))),
      bySubject(mailMessages.receipt.subject(paid.productName, orderNumber(paid.id))),
    ]) {
      expect(always.headers).toBeUndefined();
      expect(always.text).not.toContain(mailPreferenceMessages.footerLink);
    }
    // The header's address, POSTed as a mail provider does (RFC 8058), turns them off.
    const res = await ctx.app.inject({
      method: "POST",
      url: oneClick.slice(publicUrl().length),
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: "List-Unsubscribe=One-Click",
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await remindersOf(customer.id)).toBe(false);
  });
});

describe("the one-click unsubscribe", () => {
  const unsubscribe = (token: string, headers: Record<string, string> = {}) =>
    ctx.app.inject({
      method: "POST",
      url: `/api/mail/unsubscribe?${new URLSearchParams({ token })}`,
      headers,
    });

  it("turns reminder mails off without a session, from anywhere, for the token's account only", async () => {
    const customer = await signUp(ctx.app);
    const other = await signUp(ctx.app);
    // From another site and with no cookie: the token is the proof (RFC 8058 posts from the provider).
    const res = await unsubscribe(reminderUnsubscribeToken(secret(), customer.id), {
      origin: "https://mail.example",
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ reminderMails: false });
    expect(await remindersOf(customer.id)).toBe(false);
    expect(await remindersOf(other.id)).toBe(true);
    // Again: the same answer.
    expect((await unsubscribe(reminderUnsubscribeToken(secret(), customer.id))).statusCode).toBe(200);
  });

  it("refuses a forged or altered token with 400 and changes nothing", async () => {
    const customer = await signUp(ctx.app);
    const other = await signUp(ctx.app);
    const own = reminderUnsubscribeToken(secret(), customer.id);
    const [, mac] = own.split(".");
    const forged = [
      reminderUnsubscribeToken("another-secret-another-secret-0123456789", customer.id),
      // The customer's own signature under another account's id.
      `${Buffer.from(other.id).toString("base64url")}.${mac}`,
      `${own}x`,
      own.split(".")[0] ?? "",
      "not-a-token",
    ];
    for (const token of forged) {
      const res = await unsubscribe(token, { cookie: customer.cookie, origin: ORIGIN });
      expect(res.statusCode, token).toBe(400);
      expect(res.json().detail).toBe(mailPreferenceMessages.badLink);
    }
    expect((await unsubscribe("")).statusCode).toBe(400);
    expect(await remindersOf(customer.id)).toBe(true);
    expect(await remindersOf(other.id)).toBe(true);
  });

  it("a GET (a person or a link scanner opening it) changes nothing: it is sent to the page that asks", async () => {
    const customer = await signUp(ctx.app);
    const token = reminderUnsubscribeToken(secret(), customer.id);
    const res = await ctx.app.inject({ url: `/api/mail/unsubscribe?${new URLSearchParams({ token })}` });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe(`/unsubscribe?${new URLSearchParams({ token })}`);
    expect(await remindersOf(customer.id)).toBe(true);
  });
});
