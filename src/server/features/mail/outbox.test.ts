import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { mailMessages } from "../../../shared/messages/mail.js";
import { type MailKind, mailOutbox, orders, rateLimits, users } from "../../db/schema/index.js";
import type { Mail, Mailer } from "../../lib/mailer.js";
import { setUpTestApp } from "../../test/app.js";
import { paidOrder, placeOrder, post } from "../../test/payments.js";
import { until } from "../../test/until.js";
import { fromShop, memoryMailer, ORIGIN, signUp } from "../../test/users.js";
import {
  backoffSeconds,
  DROPPED,
  enqueueReminders,
  LEASE_SECONDS,
  type OutboxOptions,
  sendDueMails,
} from "./outbox.js";
import { orderReference } from "./templates.js";

const PUBLIC_URL = "http://localhost:3000";
/** What the app's own mailer (the account mails) was asked to send. */
const accountMails = memoryMailer();
const CAP = 3;
const ctx = setUpTestApp(
  { MAIL_LIMIT_PER_RECIPIENT_PER_HOUR: String(CAP) },
  { rateLimit: { max: 100_000, windowSeconds: 60 }, mailer: accountMails },
);
const alice = ctx.signedUpUser({ name: "Alice Mail" });
const admin = ctx.signedUpAdmin();
const db = () => ctx.database.db;
/** Marks an account's address verified, as following its link would (order mails go only there). */
const verify = (email: string) =>
  db().update(users).set({ emailVerified: true }).where(eq(users.email, email.toLowerCase()));
beforeAll(() => verify(alice.email));

/** A mail server that keeps what it is given, or refuses while `down`. */
function mailServer(options: { down?: boolean; delayMs?: number } = {}) {
  const received: Mail[] = [];
  const mailer: Mailer & { down: boolean } = {
    down: options.down ?? false,
    async send(mail) {
      if (options.delayMs) await new Promise((r) => setTimeout(r, options.delayMs));
      if (mailer.down) throw new Error("connect ECONNREFUSED 127.0.0.1:25");
      received.push(mail);
    },
  };
  return { received, mailer };
}

const outbox = (mailer: Mailer, extra: Partial<OutboxOptions> = {}): OutboxOptions => ({
  db: db(),
  mailer,
  publicUrl: PUBLIC_URL,
  maxAttempts: 3,
  ...extra,
});

const rowsOf = (orderId: string) =>
  db().select().from(mailOutbox).where(eq(mailOutbox.orderId, orderId)).orderBy(mailOutbox.id);
const kindsOf = async (orderId: string) => (await rowsOf(orderId)).map((r) => r.kind);
/** Sends everything due, so a test starts from an outbox with nothing due in it. */
const drain = () => sendDueMails(outbox(mailServer().mailer), { limit: 10_000 });

function expectReadable(mail: Mail) {
  // Every link absolute, to the shop (or a known carrier's tracking page, shared/carriers.ts); no
  // image to load; the text form says it all too.
  const hrefs = [...mail.html.matchAll(/href="([^"]*)"/g)].map((m) => m[1]?.replaceAll("&amp;", "&"));
  expect(hrefs.length).toBeGreaterThan(0);
  const carriers = ["https://www.ups.com/", "https://www.dhl.com/"];
  for (const href of hrefs)
    expect(
      [`${PUBLIC_URL}/`, ...carriers].some((start) => href?.startsWith(start)),
      href,
    ).toBe(true);
  expect(mail.html).not.toMatch(/<img\b/i);
  expect(mail.text.length).toBeGreaterThan(100);
  expect(mail.text).not.toMatch(/<[a-z]/i);
}

describe("the order mails' outbox", () => {
  it("queues one mail per step of an order's life, in the change's own transaction", async () => {
    const placed = await placeOrder(ctx, alice);
    expect(await kindsOf(placed.id)).toEqual(["order_placed"]);

    const paid = await paidOrder(ctx, alice);
    expect(await kindsOf(paid.id)).toEqual(["order_placed", "payment_receipt"]);
    expect(
      (await post(ctx, admin, `/api/orders/${paid.id}/ship`, { carrier: "UPS", trackingNumber: "1Z999" }))
        .statusCode,
    ).toBe(200);
    expect(await kindsOf(paid.id)).toEqual(["order_placed", "payment_receipt", "order_shipped"]);

    const refunded = await paidOrder(ctx, alice);
    expect((await post(ctx, admin, `/api/orders/${refunded.id}/refund`)).statusCode).toBe(200);
    expect(await kindsOf(refunded.id)).toEqual(["order_placed", "payment_receipt", "order_refunded"]);

    const expired = await placeOrder(ctx, alice);
    await db().execute(
      sql`update "order" set status = 'expired', expired_at = now() where id = ${expired.id}`,
    );
    expect(await kindsOf(expired.id)).toEqual(["order_placed", "order_expired"]);

    // A change that rolls back leaves no mail behind.
    const rolledBack = await placeOrder(ctx, alice);
    await db()
      .transaction(async (tx) => {
        await tx
          .update(orders)
          .set({ status: "paid", paidAt: new Date() })
          .where(eq(orders.id, rolledBack.id));
        throw new Error("roll back");
      })
      .catch(() => {});
    expect(await kindsOf(rolledBack.id)).toEqual(["order_placed"]);
  });

  it("sends each due mail once, readable without images, every link to PUBLIC_URL", async () => {
    await drain();
    const order = await placeOrder(ctx, alice);
    const { received, mailer } = mailServer();
    expect(await sendDueMails(outbox(mailer))).toEqual({ sent: 1, failed: 0 });
    expect(await sendDueMails(outbox(mailer))).toEqual({ sent: 0, failed: 0 });
    const [mail] = received;
    if (!mail) throw new Error("no mail");
    expect(mail.to).toBe(alice.email);
    expect(mail.subject).toBe(mailMessages.placed.subject(order.productName, orderReference(order.id)));
    expect(mail.text).toContain(orderReference(order.id));
    expect(mail.text).toContain("$370");
    expect(mail.text).toContain(`${PUBLIC_URL}/dashboard/payment/${order.id}`);
    expect(mail.text).toContain("(UTC)");
    expect(mail.messageId).toMatch(/^<mail-\d+@localhost>$/);
    expectReadable(mail);
    const [row] = await rowsOf(order.id);
    expect(row).toMatchObject({ attempts: 1, lastError: null });
    expect(row?.sentAt).toBeInstanceOf(Date);
  });

  it("attaches the invoice to the receipt and says its number", async () => {
    await drain();
    const order = await paidOrder(ctx, alice);
    const { received, mailer } = mailServer();
    const pdf = Buffer.from("%PDF-1.7 test");
    const invoiceFor = async (orderId: string) =>
      orderId === order.id ? { number: "GH-000042", filename: "invoice-GH-000042.pdf", pdf } : undefined;
    await sendDueMails(outbox(mailer, { invoiceFor }));
    const receipt = received.find(
      (m) => m.subject === mailMessages.receipt.subject(order.productName, orderReference(order.id)),
    );
    expect(receipt?.attachments).toEqual([
      { filename: "invoice-GH-000042.pdf", content: pdf, contentType: "application/pdf" },
    ]);
    expect(receipt?.text).toContain(mailMessages.receipt.invoice("GH-000042"));
    expect(receipt?.text).toContain(order.transactionId ?? "no transaction id");
    if (receipt) expectReadable(receipt);
  });

  it("tells of the carrier and tracking number when shipped, and of the refund", async () => {
    await drain();
    const shipped = await paidOrder(ctx, alice);
    await post(ctx, admin, `/api/orders/${shipped.id}/ship`, { carrier: "DHL", trackingNumber: "JD0146" });
    const refunded = await paidOrder(ctx, alice);
    await post(ctx, admin, `/api/orders/${refunded.id}/refund`);
    const { received, mailer } = mailServer();
    await sendDueMails(outbox(mailer));
    const shippedMail = received.find(
      (m) => m.subject === mailMessages.shipped.subject(shipped.productName, orderReference(shipped.id)),
    );
    expect(shippedMail?.text).toContain(mailMessages.shipped.carrier("DHL"));
    expect(shippedMail?.text).toContain(mailMessages.shipped.tracking("JD0146"));
    const refundMail = received.find(
      (m) => m.subject === mailMessages.refunded.subject(refunded.productName, orderReference(refunded.id)),
    );
    expect(refundMail?.text).toContain(mailMessages.refunded.lead("$370.00"));
    for (const mail of received) expectReadable(mail);
  });

  it("two instances sending at once send every mail once", async () => {
    await drain();
    const placed = await Promise.all(Array.from({ length: 12 }, () => placeOrder(ctx, alice)));
    const a = mailServer({ delayMs: 5 });
    const b = mailServer({ delayMs: 5 });
    await Promise.all([sendDueMails(outbox(a.mailer)), sendDueMails(outbox(b.mailer))]);
    const all = [...a.received, ...b.received].map((m) => m.text);
    for (const order of placed) expect(all.filter((t) => t.includes(order.id)).length, order.id).toBe(1);
    // Both took a share: the rows were not taken by one sender alone.
    expect(a.received.length).toBeGreaterThan(0);
    expect(b.received.length).toBeGreaterThan(0);
  });

  it("a mail server that is away: the order still goes through, the mail waits and is tried again, then given up", async () => {
    await drain();
    const down = mailServer({ down: true });
    const order = await placeOrder(ctx, alice);
    expect(order.status).toBe("pending");
    expect(await sendDueMails(outbox(down.mailer))).toEqual({ sent: 0, failed: 1 });
    let [row] = await rowsOf(order.id);
    expect(row).toMatchObject({ attempts: 1, sentAt: null, droppedAt: null });
    expect(row?.lastError).toContain("ECONNREFUSED");
    // Not due again before its backoff.
    const waited = ((row?.dueAt.getTime() ?? 0) - Date.now()) / 1000;
    expect(waited).toBeGreaterThan(backoffSeconds(1) - 5);
    expect(await sendDueMails(outbox(down.mailer))).toEqual({ sent: 0, failed: 0 });
    // Due again (as time would make it): the next tries fail, and the third is the last.
    for (const attempt of [2, 3]) {
      await db()
        .update(mailOutbox)
        .set({ dueAt: new Date(0) })
        .where(eq(mailOutbox.orderId, order.id));
      await sendDueMails(outbox(down.mailer));
      [row] = await rowsOf(order.id);
      expect(row?.attempts).toBe(attempt);
    }
    expect(row?.droppedAt).toBeInstanceOf(Date);
    expect(backoffSeconds(2)).toBe(2 * backoffSeconds(1));
    expect(backoffSeconds(100)).toBe(6 * 3600);
  });

  it("drops the mail of an order removed before it went out", async () => {
    await drain();
    const order = await placeOrder(ctx, alice);
    expect((await fromShop(ctx.app, "DELETE", `/api/orders/${order.id}`, alice.cookie)).statusCode).toBe(204);
    const { received, mailer } = mailServer();
    await sendDueMails(outbox(mailer));
    expect(received.filter((m) => m.text.includes(order.id))).toEqual([]);
    const [row] = await rowsOf(order.id);
    expect(row?.droppedAt).toBeInstanceOf(Date);
    expect(row?.lastError).toBe("the order was removed");
  });

  it("drops a booking mail or reminder whose order was paid before it went out", async () => {
    await drain();
    const order = await paidOrder(ctx, alice);
    await enqueueReminders(db(), 3600);
    const { received, mailer } = mailServer();
    await sendDueMails(outbox(mailer));
    expect(received.map((m) => m.subject)).toEqual([
      mailMessages.receipt.subject(order.productName, orderReference(order.id)),
    ]);
    const placed = (await rowsOf(order.id)).find((r) => r.kind === "order_placed");
    expect(placed?.droppedAt).toBeInstanceOf(Date);
    expect(placed?.lastError).toBe("the order is paid already");
  });

  it("queues a payment reminder once, for unpaid orders whose hold ends within the lead time", async () => {
    await drain();
    const soon = await placeOrder(ctx, alice);
    const later = await placeOrder(ctx, alice);
    const paid = await paidOrder(ctx, alice);
    const hold = (id: string, endsInMinutes: number) =>
      db()
        .update(orders)
        .set({
          expiresAt: new Date(Date.now() + endsInMinutes * 60_000),
          createdAt: new Date(Date.now() - 86_400_000),
        })
        .where(eq(orders.id, id));
    await hold(soon.id, 30);
    await hold(later.id, 600);
    await hold(paid.id, 30);
    expect(await enqueueReminders(db(), 3600)).toBe(1);
    expect(await enqueueReminders(db(), 3600)).toBe(0);
    const kinds = async (id: string): Promise<MailKind[]> => kindsOf(id);
    expect(await kinds(soon.id)).toContain("payment_reminder");
    expect(await kinds(later.id)).not.toContain("payment_reminder");
    expect(await kinds(paid.id)).not.toContain("payment_reminder");
    const { received, mailer } = mailServer();
    await sendDueMails(outbox(mailer));
    const reminder = received.find(
      (m) => m.subject === mailMessages.reminder.subject(soon.productName, orderReference(soon.id)),
    );
    expect(reminder?.text).toContain(`${PUBLIC_URL}/dashboard/payment/${soon.id}`);
    if (reminder) expectReadable(reminder);
  });

  it("sends order mails only to an address its account has verified, whoever asks", async () => {
    await drain();
    // Booking needs a verified address (orders/service.ts); the outbox holds the rule on its own
    // all the same, for an address no longer verified when its mail is due.
    const bob = await signUp(ctx.app, { name: "Bob Unverified" });
    const order = await placeOrder(ctx, bob);
    await db().update(users).set({ emailVerified: false }).where(eq(users.id, bob.id));
    const { received, mailer } = mailServer();
    await sendDueMails(outbox(mailer));
    expect(received.filter((m) => m.to === bob.email)).toEqual([]);
    const [row] = await rowsOf(order.id);
    expect(row?.droppedAt).toBeInstanceOf(Date);
    expect(row?.lastError).toBe(DROPPED.notVerified);
  });

  it("caps the mails one address receives an hour, every kind counted; a receipt always goes", async () => {
    await drain();
    const carol = await signUp(ctx.app, { name: "Carol Capped" });
    await verify(carol.email);
    const capped = (mailer: Mailer) => outbox(mailer, { perRecipientPerHour: CAP });
    const toCarol = (mails: Mail[]) => mails.filter((m) => m.to === carol.email);
    const askReset = () =>
      ctx.app.inject({
        method: "POST",
        url: "/api/auth/request-password-reset",
        headers: { origin: ORIGIN },
        payload: { email: carol.email, redirectTo: "/passwordReset" },
      });

    // The sign-up's verification link and a reset link count: two of the hour's three.
    await until("the verification mail", () => toCarol(accountMails.sent).length === 1);
    expect((await askReset()).statusCode).toBe(200);
    await until("the reset mail", () => toCarol(accountMails.sent).length === 2);
    // Two bookings: one mail goes, the second is dropped (a booking mail over the cap is not kept).
    const booked = [];
    for (let i = 0; i < 2; i++) booked.push(await placeOrder(ctx, carol));
    const { received, mailer } = mailServer();
    await sendDueMails(capped(mailer), { limit: 1_000 });
    expect(toCarol(received)).toHaveLength(1);
    const rows = (await Promise.all(booked.map((o) => rowsOf(o.id)))).flat();
    expect(rows.filter((r) => r.sentAt)).toHaveLength(1);
    expect(rows.filter((r) => r.droppedAt).map((r) => r.lastError)).toEqual([DROPPED.overCap]);

    // Over the cap: a reset link is not sent (the answer is the same), nor is any other account mail.
    expect((await askReset()).statusCode).toBe(200);
    expect(toCarol(accountMails.sent)).toHaveLength(2);

    // A paid order's receipt goes all the same (its booking mail does not); word of its shipment
    // waits for the hour to end, neither sent nor dropped, and not counted as a try.
    const paid = await paidOrder(ctx, carol);
    await post(ctx, admin, `/api/orders/${paid.id}/ship`, { carrier: "UPS", trackingNumber: "1Z1" });
    await sendDueMails(capped(mailer), { limit: 1_000 });
    expect(toCarol(received).map((m) => m.subject)).toContain(
      mailMessages.receipt.subject(paid.productName, orderReference(paid.id)),
    );
    const shipped = (await rowsOf(paid.id)).find((r) => r.kind === "order_shipped");
    expect(shipped).toMatchObject({ sentAt: null, droppedAt: null, attempts: 0, lastError: DROPPED.overCap });
    expect((shipped?.dueAt.getTime() ?? 0) - Date.now()).toBeGreaterThan(50 * 60_000);
    expect(toCarol(received).map((m) => m.subject)).not.toContain(
      mailMessages.shipped.subject(paid.productName, orderReference(paid.id)),
    );

    // The hour ends (as time would make it): the shipment's word goes.
    await db()
      .update(rateLimits)
      .set({ windowStart: new Date(Date.now() - 3_600_000) })
      .where(eq(rateLimits.key, `mail:to:${carol.email.toLowerCase()}`));
    await db()
      .update(mailOutbox)
      .set({ dueAt: new Date(0) })
      .where(eq(mailOutbox.id, shipped?.id ?? 0));
    await sendDueMails(capped(mailer), { limit: 1_000 });
    expect(toCarol(received).map((m) => m.subject)).toContain(
      mailMessages.shipped.subject(paid.productName, orderReference(paid.id)),
    );
  });

  it("gives a mail the mail server refused its place under the cap back", async () => {
    await drain();
    const dan = await signUp(ctx.app, { name: "Dan Retried" });
    await verify(dan.email);
    const order = await placeOrder(ctx, dan);
    const down = mailServer({ down: true });
    // More failures than the cap: each try gave its count back, so the mail still goes.
    for (let i = 0; i < CAP + 1; i++) {
      await db()
        .update(mailOutbox)
        .set({ dueAt: new Date(0) })
        .where(eq(mailOutbox.orderId, order.id));
      await sendDueMails(outbox(down.mailer, { perRecipientPerHour: CAP, maxAttempts: 100 }));
    }
    await db()
      .update(mailOutbox)
      .set({ dueAt: new Date(0) })
      .where(eq(mailOutbox.orderId, order.id));
    const up = mailServer();
    await sendDueMails(outbox(up.mailer, { perRecipientPerHour: CAP, maxAttempts: 100 }));
    expect(up.received.map((m) => m.to)).toEqual([dan.email]);
  });

  it("a sender that dies leaves its mail due again when its lease ends: it goes again with the same Message-ID, and the late sender marks nothing", async () => {
    await drain();
    const order = await placeOrder(ctx, alice);
    // Sender A hands the mail over, and its mail server never answers (as far as the outbox can tell, A died).
    const took: Mail[] = [];
    let answer = () => {};
    const answered = new Promise<void>((resolve) => {
      answer = resolve;
    });
    const stalled: Mailer = {
      async send(mail) {
        took.push(mail);
        await answered;
      },
    };
    const a = sendDueMails(outbox(stalled));
    await until("A handed the mail over", () => took.length === 1);
    // While its lease lasts no one else takes the mail.
    const b = mailServer();
    expect(await sendDueMails(outbox(b.mailer))).toEqual({ sent: 0, failed: 0 });
    let [row] = await rowsOf(order.id);
    expect(row?.leaseId).toEqual(expect.any(String));
    expect((row?.dueAt.getTime() ?? 0) - Date.now()).toBeGreaterThan((LEASE_SECONDS - 60) * 1000);

    // The lease ends (as time would make it): B sends the mail again, as the same message.
    await db()
      .update(mailOutbox)
      .set({ dueAt: new Date(0) })
      .where(eq(mailOutbox.orderId, order.id));
    expect(await sendDueMails(outbox(b.mailer))).toEqual({ sent: 1, failed: 0 });
    expect(b.received.map((m) => m.messageId)).toEqual([took[0]?.messageId]);
    [row] = await rowsOf(order.id);
    expect(row).toMatchObject({ attempts: 2, leaseId: null, droppedAt: null });
    const sentAt = row?.sentAt;
    expect(sentAt).toBeInstanceOf(Date);

    // A comes back: its lease is gone, so it changes nothing, and no one sends the mail a third time.
    answer();
    await a;
    [row] = await rowsOf(order.id);
    expect(row?.sentAt).toEqual(sentAt);
    expect(row?.attempts).toBe(2);
    expect(await sendDueMails(outbox(b.mailer))).toEqual({ sent: 0, failed: 0 });
  });
});
