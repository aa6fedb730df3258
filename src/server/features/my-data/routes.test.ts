import { and, eq, isNull, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { creditNoteNumber } from "../../../shared/credit-notes.js";
import { orderNumber } from "../../../shared/format.js";
import { invoiceNumber } from "../../../shared/invoices.js";
import { myDataMessages } from "../../../shared/messages/my-data.js";
import { orderMessages } from "../../../shared/messages/orders.js";
import { MY_DATA_PATH } from "../../../shared/my-data.js";
import type { Order } from "../../../shared/orders.js";
import { accounts, mailOutbox, orders, sessions, stockNotices, twoFactors } from "../../db/schema/index.js";
import { zipStream } from "../../lib/zip.js";
import { setUpTestApp } from "../../test/app.js";
import { confirmWithCard, placeOrder, post } from "../../test/payments.js";
import { stockedProduct } from "../../test/products.js";
import { enrolApp } from "../../test/totp.js";
import { until } from "../../test/until.js";
import { fromShop, memoryMailer, signUp, type TestUser } from "../../test/users.js";
import { readZip } from "../../test/zip-reader.js";
import { myDataEntries, PAGE_SIZE } from "./service.js";

/** GET /api/me/data: the owner's own data, all of it, nothing secret, as a ZIP that streams. */

const mailer = memoryMailer();
// The outbox sends every tenth of a second, so the file lists mails actually sent.
const ctx = setUpTestApp({ MAIL_OUTBOX_INTERVAL_SECONDS: "0.1", DATA_DOWNLOADS_PER_HOUR: "20" }, { mailer });
const alice = ctx.signedUpUser({ name: "Alice Data", phone: "+1 555 0101" });
const bob = ctx.signedUpUser({ name: "Bob Other", phone: "+1 555 0202" });
const admin = ctx.signedUpAdmin();
const db = () => ctx.database.db;

const download = (user: TestUser | null) =>
  ctx.app.inject({ method: "GET", url: MY_DATA_PATH, headers: user ? { cookie: user.cookie } : {} });

async function paid(user: TestUser, price: number): Promise<Order> {
  const order = await placeOrder(ctx, user, price);
  const transactionId = await confirmWithCard(ctx, user, order.id);
  const res = await post(ctx, user, `/api/orders/${order.id}/pay`, { transactionId });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

interface Data {
  about: string;
  exportedAt: string;
  notes: { mails: string; reviews: string };
  account: Record<string, unknown>;
  profile: Record<string, unknown> | null;
  orders: (Record<string, unknown> & { id: string; payments: object[]; refunds: object[] })[];
  reviews: Record<string, unknown>[];
  backInStockSubscriptions: Record<string, unknown>[];
  mails: Record<string, unknown>[];
}

/** Everything a customer has, made through the shop as they and an admin would. */
async function makeHistory(user: TestUser, tag: string) {
  const create = await post(ctx, user, "/api/profile", {
    address: `${tag} Street 1`,
    city: `${tag} City`,
    phone: "5550100",
    companyName: `${tag} Ltd`,
    companyTaxId: `${tag}-TAX-1`,
  });
  expect(create.statusCode, create.body).toBe(201);
  const unpaid = await placeOrder(ctx, user, 21);
  const paidOrder = await paid(user, 37);
  const refundedOrder = await paid(user, 45);
  const refund = await post(ctx, admin, `/api/orders/${refundedOrder.id}/refund`);
  expect(refund.statusCode, refund.body).toBe(200);
  const review = await post(ctx, user, "/api/reviews", {
    comment: `${tag} says the fans are quiet`,
    rating: 4,
  });
  expect(review.statusCode, review.body).toBe(201);
  const hidden = await post(ctx, user, "/api/reviews", { comment: `${tag} advertises elsewhere`, rating: 1 });
  expect(hidden.statusCode, hidden.body).toBe(201);
  const hide = await post(ctx, admin, `/api/reviews/${hidden.json().id}/hide`, { reason: "Advertising" });
  expect(hide.statusCode, hide.body).toBe(200);
  const soldOut = await stockedProduct(db(), 3);
  const subscribed = await fromShop(ctx.app, "POST", "/api/stock-notices", user.cookie, {
    productId: soldOut,
  });
  expect(subscribed.statusCode, subscribed.body).toBe(201);
  const mailed = await stockedProduct(db(), 3);
  const ended = await fromShop(ctx.app, "POST", "/api/stock-notices", user.cookie, { productId: mailed });
  // The notice job's one statement, as it ends a subscription: its mail queued, the row marked.
  await db().update(stockNotices).set({ notifiedAt: new Date() }).where(eq(stockNotices.id, ended.json().id));
  await db().insert(mailOutbox).values({ kind: "back_in_stock", orderId: ended.json().id });
  return {
    unpaid,
    paidOrder,
    refundedOrder,
    review: review.json(),
    hidden: hidden.json(),
    ended: ended.json(),
  };
}

let aliceHistory: Awaited<ReturnType<typeof makeHistory>>;
let bobHistory: Awaited<ReturnType<typeof makeHistory>>;
beforeAll(async () => {
  aliceHistory = await makeHistory(alice, "Alice");
  bobHistory = await makeHistory(bob, "Bob");
  // Every mail queued so far has gone out (receipts, refunds, back in stock).
  await until("the outbox has sent every mail", async () => {
    const [row] = await db()
      .select({ n: sql<number>`count(*)::int` })
      .from(mailOutbox)
      .where(and(isNull(mailOutbox.sentAt), isNull(mailOutbox.droppedAt)));
    return row?.n === 0;
  });
});

async function dataOf(user: TestUser) {
  const res = await download(user);
  expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
  const files = readZip(res.rawPayload);
  const json = files.get("data.json")?.toString("utf8") ?? "";
  const csv = files.get("orders.csv")?.toString("utf8") ?? "";
  return { res, files, json, csv, data: JSON.parse(json) as Data };
}

describe("Download my data", () => {
  it("is a ZIP of data.json and orders.csv, downloaded under the day's name, kept by no cache", async () => {
    const { res, files } = await dataOf(alice);
    expect([...files.keys()]).toEqual(["data.json", "orders.csv"]);
    expect(res.headers["content-type"]).toBe("application/zip");
    const day = new Date().toISOString().slice(0, 10);
    expect(res.headers["content-disposition"]).toBe(`attachment; filename="gearhouse-data-${day}.zip"`);
    expect(res.headers["cache-control"]).toBe("private, no-store");
  });

  it("holds the account, the profile, every order with its payments, refunds and numbers, reviews, subscriptions and mails", async () => {
    const { data } = await dataOf(alice);
    const h = aliceHistory;
    expect(data.account).toMatchObject({
      name: "Alice Data",
      email: alice.email,
      phone: "+1 555 0101",
      role: "user",
      secondFactorApp: false,
      passkeys: 0,
      reminderMails: true,
      signInWith: ["password"],
    });
    expect(data.profile).toMatchObject({
      address: "Alice Street 1",
      city: "Alice City",
      phone: "5550100",
      companyName: "Alice Ltd",
      companyTaxId: "Alice-TAX-1",
    });

    // Newest first: the refunded, the paid, the unpaid order.
    expect(data.orders.map((o) => o.id)).toEqual([h.refundedOrder.id, h.paidOrder.id, h.unpaid.id]);
    const [refunded, paidOne, unpaid] = data.orders;
    const [paidRow] = await db().select().from(orders).where(eq(orders.id, h.paidOrder.id));
    const [refundedRow] = await db().select().from(orders).where(eq(orders.id, h.refundedOrder.id));
    if (!paidRow || !refundedRow) throw new Error("orders missing");
    expect(paidOne).toMatchObject({
      status: "paid",
      statusLabel: orderMessages.status.paid,
      quantity: 10,
      unitPrice: 37,
      totalPrice: 370,
      grossCents: paidRow.grossCents,
      netCents: paidRow.netCents,
      address: "1 Loop Road, Austin",
      transactionId: paidRow.transactionId,
      number: orderNumber(paidRow.id),
      invoiceNumber: expect.stringMatching(/^GH-\d{6}$/),
      creditNoteNumber: null,
      refunds: [],
    });
    expect(paidOne?.payments).toEqual([
      expect.objectContaining({ provider: "sandbox", amountCents: paidRow.grossCents, cardLast4: "4242" }),
    ]);
    expect(refunded).toMatchObject({
      status: "refunded",
      invoiceNumber: expect.stringMatching(/^GH-\d{6}$/),
      creditNoteNumber: creditNoteNumber(refundedRow.creditNoteNumber ?? -1),
    });
    expect(refunded?.payments).toHaveLength(1);
    expect(refunded?.refunds).toEqual([
      expect.objectContaining({ amountCents: refundedRow.grossCents, reason: "admin" }),
    ]);
    expect(unpaid).toMatchObject({
      status: "pending",
      statusLabel: "Not Paid",
      invoiceNumber: null,
      payments: [],
    });

    expect(data.reviews).toEqual([
      expect.objectContaining({ id: h.hidden.id, hidden: true, hiddenReason: "Advertising", rating: 1 }),
      expect.objectContaining({ id: h.review.id, hidden: false, hiddenReason: null, rating: 4 }),
    ]);
    expect(data.backInStockSubscriptions).toHaveLength(2);
    expect(data.backInStockSubscriptions).toContainEqual(
      expect.objectContaining({ id: h.ended.id, mailedAt: expect.any(String) }),
    );

    // The mails: each order's (placed, receipt, refund…) and the subscription's back-in-stock one.
    const mailRows = await db()
      .select({ kind: mailOutbox.kind, about: mailOutbox.orderId })
      .from(mailOutbox)
      .where(
        sql`${mailOutbox.orderId} in (${sql.join(
          [h.unpaid.id, h.paidOrder.id, h.refundedOrder.id, h.ended.id].map((id) => sql`${id}::uuid`),
          sql`, `,
        )})`,
      );
    expect(mailRows.length).toBeGreaterThanOrEqual(5);
    expect(data.mails).toHaveLength(mailRows.length);
    expect(data.mails).toContainEqual(
      expect.objectContaining({
        kind: "order_refunded",
        order: h.refundedOrder.id,
        sentAt: expect.any(String),
      }),
    );
    expect(data.mails).toContainEqual(
      expect.objectContaining({ kind: "payment_receipt", order: h.paidOrder.id, sentAt: expect.any(String) }),
    );
    expect(data.mails).toContainEqual(
      expect.objectContaining({
        kind: "back_in_stock",
        subscription: h.ended.id,
        sentAt: expect.any(String),
      }),
    );
    expect(data.notes.mails).toBe(myDataMessages.file.mails(ctx.config.retention.outboxDays));
  });

  it("has the orders again in orders.csv, with their invoice and credit note numbers", async () => {
    const { csv, data } = await dataOf(alice);
    expect(csv.startsWith(`\uFEFF"${myDataMessages.csv.id}"`)).toBe(true);
    const lines = csv.slice(1).split("\r\n");
    expect(lines.at(-1)).toBe("");
    expect(lines).toHaveLength(1 + data.orders.length + 1);
    const refunded = data.orders[0];
    const line = lines[1] ?? "";
    expect(line.startsWith(`"${refunded?.id}","${refunded?.number}",`)).toBe(true);
    expect(refunded?.number).toBe(orderNumber(refunded?.id ?? ""));
    expect(line).toContain(`"${refunded?.invoiceNumber}","${refunded?.creditNoteNumber}"`);
    expect(line).toContain(`"${orderMessages.status.refunded}"`);
    expect(lines[3]).toContain(`"Not Paid"`);
    expect(lines[3]?.endsWith(`"",""`)).toBe(true);
  });

  it("writes invoice numbers in SQL as the shop prints them", async () => {
    const [row] = await db()
      .execute<{ a: string; b: string }>(
        sql`select 'GH-' || lpad(123::text, greatest(6, length(123::text)), '0') as a,
                 'GH-' || lpad(12345678::text, greatest(6, length(12345678::text)), '0') as b`,
      )
      .then((r) => r.rows);
    expect([row?.a, row?.b]).toEqual([invoiceNumber(123), invoiceNumber(12345678)]);
  });

  it("holds nothing of another customer's, and nothing secret of the owner's", async () => {
    const { secret } = await enrolApp(ctx.app, alice);
    const { json, csv, files, data } = await dataOf(alice);
    expect(data.account.secondFactorApp).toBe(true);
    const everything = `${json}\n${csv}`;
    expect([...files.keys()]).toEqual(["data.json", "orders.csv"]);

    // Bob's account, profile, orders, reviews and subscriptions appear nowhere.
    const bobIds = [
      bob.id,
      bob.email,
      "Bob Other",
      "Bob Street",
      "Bob-TAX-1",
      bobHistory.unpaid.id,
      bobHistory.paidOrder.id,
      bobHistory.refundedOrder.id,
      bobHistory.review.id,
      bobHistory.hidden.id,
      bobHistory.ended.id,
    ];
    for (const text of bobIds) expect(everything, text).not.toContain(text);

    // Nor the password's hash, a session's token, the app's secret (as enrolled and as stored) and
    // backup codes, nor the admin who hid a review.
    const [credential] = await db().select().from(accounts).where(eq(accounts.userId, alice.id));
    const tokens = await db()
      .select({ token: sessions.token })
      .from(sessions)
      .where(eq(sessions.userId, alice.id));
    const [factor] = await db().select().from(twoFactors).where(eq(twoFactors.userId, alice.id));
    const secrets = [
      credential?.password,
      ...tokens.map((t) => t.token),
      secret,
      factor?.secret,
      factor?.backupCodes,
      alice.password,
      admin.email,
    ];
    expect(secrets.filter(Boolean)).toHaveLength(secrets.length);
    for (const text of secrets) expect(everything).not.toContain(String(text));
    expect(everything).not.toContain(alice.id);
  });

  it("is for the signed-in account only: 401 signed out", async () => {
    const res = await download(null);
    expect(res.statusCode).toBe(401);
    expect(res.headers["content-type"]).toMatch(/^application\/problem\+json/);
    expect(res.headers["content-disposition"]).toBeUndefined();
  });

  it("answers 429 past DATA_DOWNLOADS_PER_HOUR, with Retry-After and the limit in words", async () => {
    const carol = await signUp(ctx.app, { name: "Carol Limit" });
    for (let i = 0; i < ctx.config.dataDownloadsPerHour; i++)
      expect((await download(carol)).statusCode).toBe(200);
    const refused = await download(carol);
    expect(refused.statusCode).toBe(429);
    expect(refused.headers["content-type"]).toMatch(/^application\/problem\+json/);
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
    expect(refused.json().detail).toContain(
      myDataMessages.rateLimited(ctx.config.dataDownloadsPerHour, 3600).split(".")[0],
    );
  });
});

describe("a customer with 5,000 orders", () => {
  const ORDERS = 5_000;
  const dana = ctx.signedUpUser({ name: "Dana Many" });

  beforeAll(async () => {
    // Set-based: one statement for five thousand orders, a thousandth of them paid with an invoice.
    await db().execute(sql`
      insert into ${orders} (user_id, product_name, img, name, email, address, phone, quantity,
                             unit_price, total_price, net_cents, gross_cents, status, created_at)
      select ${dana.id}, 'Bulk Fan ' || g, '/media/products/x.svg', 'Dana Many', ${dana.email},
             g || ' Mill Lane', '5550123', 10, 12, 120, 12000, 12000, 'pending',
             '2021-01-01'::timestamptz - g * interval '1 minute'
      from generate_series(1, ${ORDERS}) g`);
    // Their "order placed" mails (queued by the insert's trigger) as sent long ago, so the outbox
    // leaves them be; the file lists all five thousand.
    await db().execute(sql`
      update ${mailOutbox} set sent_at = '2021-01-02'
      where order_id in (select id from ${orders} where user_id = ${dana.id})`);
  });

  it("downloads them all, in both files, newest first, sent as it is written", async () => {
    const address = await ctx.app.listen({ port: 0, host: "127.0.0.1" });
    const res = await fetch(`${address}${MY_DATA_PATH}`, { headers: { cookie: dana.cookie } });
    expect(res.status).toBe(200);
    // Chunked, with no length: sent as it was made, not as a body held whole and then sent.
    expect(res.headers.get("transfer-encoding")).toBe("chunked");
    expect(res.headers.get("content-length")).toBeNull();
    const files = readZip(Buffer.from(await res.arrayBuffer()));
    const data = JSON.parse(files.get("data.json")?.toString("utf8") ?? "") as Data;
    const csv = files.get("orders.csv")?.toString("utf8") ?? "";
    expect(data.orders).toHaveLength(ORDERS);
    expect(data.orders[0]?.product).toMatchObject({ name: "Bulk Fan 1" });
    expect(data.orders.at(-1)?.product).toMatchObject({ name: `Bulk Fan ${ORDERS}` });
    expect(new Set(data.orders.map((o) => o.id)).size).toBe(ORDERS);
    expect(csv.split("\r\n")).toHaveLength(1 + ORDERS + 1);
    expect(data.mails.filter((m) => m.kind === "order_placed")).toHaveLength(ORDERS);
  });

  it("reads the next page of orders only once the archive has taken the last", async () => {
    const pages = Math.ceil(ORDERS / PAGE_SIZE);
    expect(pages).toBeGreaterThanOrEqual(5);
    // Counts the queries of a page of Dana's orders as the pool runs them.
    const pool = ctx.database.pool;
    const spy = vi.spyOn(pool, "query");
    const orderPagesRead = () =>
      spy.mock.calls.filter(([query]) => {
        const text = typeof query === "string" ? query : ((query as { text?: string }).text ?? "");
        return /from "order" left join "invoice"/.test(text);
      }).length;
    try {
      const entries = await myDataEntries(db(), dana.id, { mailRetentionDays: 30, now: new Date() });
      if (!entries) throw new Error("no entries");
      const zip = zipStream(entries);
      // The first pieces of the archive: its first entry's header and the start of data.json.
      let bytes = 0;
      while (bytes < 64 * 1024) {
        const next = await zip.next();
        if (next.done) throw new Error("the archive ended early");
        bytes += next.value.length;
      }
      const early = orderPagesRead();
      expect(early).toBeGreaterThan(0);
      expect(early).toBeLessThan(pages);
      for (;;) if ((await zip.next()).done) break;
      // Both files: every page for data.json, and again for orders.csv.
      expect(orderPagesRead()).toBe(2 * pages + (ORDERS % PAGE_SIZE === 0 ? 2 : 0));
    } finally {
      spy.mockRestore();
    }
  });
});
