import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { mailMessages } from "../../../shared/messages/mail.js";
import { problemCodes } from "../../../shared/problem-codes.js";
import { mailOutbox, products, stockNotices, users } from "../../db/schema/index.js";
import type { Mailer } from "../../lib/mailer.js";
import { setUpTestApp } from "../../test/app.js";
import { stockedProduct } from "../../test/products.js";
import { fromShop, memoryMailer, signUp, type TestUser } from "../../test/users.js";
import { DROPPED, sendDueMails } from "../mail/index.js";
import { queueBackInStock, removeOldNotices, runStockNotices } from "./job.js";
import { unsubscribeToken, unsubscribeUrl } from "./token.js";

const PUBLIC_URL = "http://localhost:3000";
const SECRET = "test-secret-test-secret-test-secret-0123";
const ctx = setUpTestApp();
const alice = ctx.signedUpUser({ name: "Alice Notice" });
const bob = ctx.signedUpUser({ name: "Bob Notice" });
const db = () => ctx.database.db;

const subscribe = (user: TestUser, productId: string) =>
  fromShop(ctx.app, "POST", "/api/stock-notices", user.cookie, { productId });
const list = (user: TestUser, query = "") =>
  ctx.app.inject({ method: "GET", url: `/api/stock-notices${query}`, headers: { cookie: user.cookie } });
const restock = (productId: string, quantity: number) =>
  db().transaction(async (tx) => {
    // The stock ledger's reason (issue 31, h31b): harmless before its trigger exists.
    await tx.execute(sql`select set_config('gearhouse.stock_reason', 'adjustment', true)`);
    await tx.update(products).set({ quantity }).where(eq(products.id, productId));
  });

const archive = (productId: string) =>
  db().update(products).set({ archivedAt: new Date() }).where(eq(products.id, productId));
/** The id of `user`'s subscription to `productId` (as a subquery: the outbox names it in order_id). */
const noticeOf = (user: TestUser, productId: string) =>
  sql`(select id from ${stockNotices} where user_id = ${user.id} and product_id = ${productId})`;

const send = (mailer: Mailer) =>
  sendDueMails(
    {
      db: db(),
      mailer,
      publicUrl: PUBLIC_URL,
      maxAttempts: 3,
      unsubscribeUrl: (id) => unsubscribeUrl(PUBLIC_URL, SECRET, id),
    },
    { limit: 10_000 },
  );

describe("back-in-stock subscriptions", () => {
  it("takes one subscription per customer and product, only while it cannot be booked", async () => {
    const soldOut = await stockedProduct(db(), 3);
    const first = await subscribe(alice, soldOut);
    expect(first.statusCode).toBe(201);
    const again = await subscribe(alice, soldOut);
    expect(again.statusCode).toBe(201);
    expect(again.json().id).toBe(first.json().id);
    const page = (await list(alice, `?productId=${soldOut}`)).json();
    expect(page.items).toHaveLength(1);
    expect(page.items[0]).toMatchObject({ productId: soldOut, quantity: 3 });

    const inStock = await stockedProduct(db(), 10);
    expect((await subscribe(alice, inStock)).statusCode).toBe(409);
    expect((await subscribe(alice, "00000000-0000-4000-8000-000000000000")).statusCode).toBe(404);
    const anonymous = await ctx.app.inject({
      method: "POST",
      url: "/api/stock-notices",
      headers: { origin: PUBLIC_URL },
      payload: { productId: soldOut },
    });
    expect(anonymous.statusCode).toBe(401);
  });

  it("pages a customer's list and lets only its owner cancel", async () => {
    const customer = await signUp(ctx.app);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++)
      ids.push((await subscribe(customer, await stockedProduct(db(), 0))).json().id);
    const first = (await list(customer, "?limit=2")).json();
    expect(first.items.map((n: { id: string }) => n.id)).toEqual([ids[2], ids[1]]);
    expect(first.total).toEqual({ count: 3, exact: true });
    const second = (await list(customer, `?limit=2&cursor=${first.nextCursor}`)).json();
    expect(second.items.map((n: { id: string }) => n.id)).toEqual([ids[0]]);
    expect(second.nextCursor).toBeNull();

    expect((await fromShop(ctx.app, "DELETE", `/api/stock-notices/${ids[0]}`, bob.cookie)).statusCode).toBe(
      404,
    );
    expect(
      (await fromShop(ctx.app, "DELETE", `/api/stock-notices/${ids[0]}`, customer.cookie)).statusCode,
    ).toBe(204);
    expect((await list(customer)).json().total.count).toBe(2);
  });

  it("mails each subscriber once, in the order they asked, when the stock reaches the minimum", async () => {
    await send(memoryMailer());
    const productId = await stockedProduct(db(), 2);
    const carol = await signUp(ctx.app, { name: "Carol Notice" });
    // Asked in this order: bob, carol, alice.
    for (const user of [bob, carol, alice]) expect((await subscribe(user, productId)).statusCode).toBe(201);

    await restock(productId, 9);
    await runStockNotices(db());
    expect(await send(memoryMailer())).toEqual({ sent: 0, failed: 0 });

    await restock(productId, 10);
    const mailer = memoryMailer();
    expect((await runStockNotices(db())).queued).toBe(3);
    expect(await send(mailer)).toEqual({ sent: 3, failed: 0 });
    expect(mailer.sent.map((m) => m.to)).toEqual([bob.email, carol.email, alice.email]);
    const [mail] = mailer.sent;
    if (!mail) throw new Error("no mail");
    const [product] = await db().select().from(products).where(eq(products.id, productId));
    expect(mail.subject).toBe(mailMessages.backInStock.subject(product?.name ?? ""));
    expect(mail.text).toContain(`${PUBLIC_URL}/tool/${productId}`);
    expect(mail.html).toContain(`${PUBLIC_URL}/stock-notices/unsubscribe?id=`);
    // Ended: the list no longer shows it, and nothing more is queued or sent.
    expect((await list(bob, `?productId=${productId}`)).json().items).toEqual([]);
    expect(await runStockNotices(db())).toMatchObject({ queued: 0 });
    expect(await send(mailer)).toEqual({ sent: 0, failed: 0 });
    // A customer may ask again once it runs out again.
    await restock(productId, 0);
    expect((await subscribe(bob, productId)).statusCode).toBe(201);
  });

  it("drops the mail of an unverified address, and of a subscription unsubscribed meanwhile", async () => {
    const productId = await stockedProduct(db(), 0);
    const unverified = await signUp(ctx.app, {}, { verified: false });
    const leaving = await signUp(ctx.app);
    const leavingNotice = (await subscribe(leaving, productId)).json().id as string;
    await subscribe(unverified, productId);
    await restock(productId, 50);
    await queueBackInStock(db());
    // The mail is queued; the customer follows an older mail's link before it goes.
    const bad = await ctx.app.inject({
      method: "POST",
      url: "/api/stock-notices/unsubscribe",
      headers: { origin: PUBLIC_URL },
      payload: { id: leavingNotice, token: unsubscribeToken("another-secret", leavingNotice) },
    });
    expect(bad.statusCode).toBe(400);
    const good = await ctx.app.inject({
      method: "POST",
      url: "/api/stock-notices/unsubscribe",
      headers: { origin: PUBLIC_URL },
      payload: { id: leavingNotice, token: unsubscribeToken(SECRET, leavingNotice) },
    });
    expect(good.statusCode).toBe(204);
    const mailer = memoryMailer();
    await send(mailer);
    expect(mailer.sent).toEqual([]);
    const reasons = await db()
      .select({ reason: mailOutbox.lastError })
      .from(mailOutbox)
      .where(eq(mailOutbox.kind, "back_in_stock"))
      .orderBy(mailOutbox.id);
    expect(reasons.slice(-2).map((r) => r.reason)).toEqual([DROPPED.unsubscribed, DROPPED.notVerified]);
  });

  it("takes none for an archived product (410), and mails none while it is archived", async () => {
    const waiting = await stockedProduct(db(), 0);
    const queued = await stockedProduct(db(), 0);
    const erin = await signUp(ctx.app);
    await subscribe(erin, waiting);
    await subscribe(erin, queued);
    await archive(waiting);
    const refused = await subscribe(alice, waiting);
    expect(refused.statusCode).toBe(410);
    expect(refused.json().code).toBe(problemCodes.productArchived);

    // Restocked while archived: its subscription waits, unmailed.
    await restock(waiting, 50);
    await runStockNotices(db());
    expect(
      await db()
        .select()
        .from(mailOutbox)
        .where(eq(mailOutbox.orderId, noticeOf(erin, waiting))),
    ).toEqual([]);

    // Archived after its mail was queued: the mail is dropped, not sent.
    await restock(queued, 50);
    await runStockNotices(db());
    await archive(queued);
    const mailer = memoryMailer();
    await send(mailer);
    expect(mailer.sent.filter((mail) => mail.to === erin.email)).toEqual([]);
    const [row] = await db()
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.orderId, noticeOf(erin, queued)));
    expect(row?.lastError).toBe(DROPPED.archived);
  });

  it("ends a subscription unmailed after 90 days", async () => {
    const productId = await stockedProduct(db(), 0);
    const id = (await subscribe(alice, productId)).json().id as string;
    await db()
      .update(stockNotices)
      .set({ createdAt: sql`now() - interval '91 days'` })
      .where(eq(stockNotices.id, id));
    expect((await list(alice, `?productId=${productId}`)).json().items).toEqual([]);
    await restock(productId, 100);
    expect(await queueBackInStock(db())).toBe(0);
    expect(await removeOldNotices(db())).toBeGreaterThanOrEqual(1);
    expect(await db().select().from(stockNotices).where(eq(stockNotices.id, id))).toEqual([]);
  });

  it("counts the mails against the recipient's hourly cap: over it, one waits", async () => {
    const productId = await stockedProduct(db(), 0);
    const dave = await signUp(ctx.app);
    await subscribe(dave, productId);
    await db().update(users).set({ emailVerified: true }).where(eq(users.id, dave.id));
    await db().execute(
      sql`insert into rate_limit (key, count, window_start) values (${`mail:to:${dave.email}`}, 1000, now())
          on conflict (key) do update set count = 1000, window_start = now()`,
    );
    await restock(productId, 20);
    await queueBackInStock(db());
    const mailer = memoryMailer();
    await sendDueMails(
      { db: db(), mailer, publicUrl: PUBLIC_URL, maxAttempts: 3, perRecipientPerHour: 10 },
      { limit: 10_000 },
    );
    expect(mailer.sent.filter((m) => m.to === dave.email)).toEqual([]);
    const [row] = await db()
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.kind, "back_in_stock"))
      .orderBy(sql`${mailOutbox.id} desc`)
      .limit(1);
    expect(row).toMatchObject({ sentAt: null, droppedAt: null, lastError: DROPPED.overCap });
  });
});
