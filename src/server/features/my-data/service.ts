import { type AnyColumn, and, count, eq, inArray, notInArray, type SQL, sql } from "drizzle-orm";
import type { PgSelect } from "drizzle-orm/pg-core";
import { creditNoteNumber } from "../../../shared/credit-notes.js";
import { orderNumber } from "../../../shared/format.js";
import { invoiceNumber } from "../../../shared/invoices.js";
import { myDataMessages } from "../../../shared/messages/my-data.js";
import { orderMessages } from "../../../shared/messages/orders.js";
import type { Db } from "../../db/client.js";
import {
  accounts,
  invoices,
  mailOutbox,
  orderAmountColumns,
  orders,
  passkeys,
  payments,
  products,
  profiles,
  refunds,
  reviews,
  stockNotices,
  users,
} from "../../db/schema/index.js";
import { csvLine, labelled, quote, quoted } from "../../lib/csv.js";
import { cursorAt, type KeysetRow, keysetWindow, type NewestFirstKey } from "../../lib/keyset.js";
import type { KeyCursor } from "../../lib/paging.js";
import type { ZipEntry } from "../../lib/zip.js";
import { orderCells } from "../orders/index.js";

/**
 * Download my data (docs/product.md, "Download my data"): everything the shop keeps about one
 * account, as data.json and, for a spreadsheet, its orders as orders.csv, in one ZIP
 * (lib/zip.ts). Every list is read a page at a time (keyset on created_at, id, as the shop's other
 * lists), the next page only once the previous one's text has been taken by the archive, so a
 * customer with thousands of orders costs one page of memory. Every query is bound to the
 * account's id: there is no other way in. Nothing secret is read: not the password (account
 * rows give only their provider), tokens, sessions nor second-factor secrets; of a hidden review,
 * not the admin who hid it.
 */

/** Rows per query: a page of orders is some hundred kilobytes of JSON. */
export const PAGE_SIZE = 500;

const iso = (at: Date | null) => (at ? at.toISOString() : null);

/** A table of rows that belong to one account, listed newest first. */
type Owned = NewestFirstKey & { userId: AnyColumn };

/**
 * The account's rows of `table` newest first, a page at a time, the next page read only once it is
 * asked for: `select` names the columns (`id` and `cursorAt` among them) and the joins; the bound
 * to the account, the window and the page size are set here.
 */
async function* ownedPages<Q extends PgSelect & { readonly _: { readonly result: KeysetRow[] } }>(
  table: Owned,
  userId: string,
  select: () => Q,
): AsyncGenerator<Q["_"]["result"]> {
  let after: KeyCursor | undefined;
  for (;;) {
    const { where, orderBy } = keysetWindow(table, { after });
    const rows: Q["_"]["result"] = await select()
      .where(and(eq(table.userId, userId), where))
      .orderBy(...orderBy)
      .limit(PAGE_SIZE)
      .execute();
    if (rows.length > 0) yield rows;
    const last = rows.at(-1);
    if (!last || rows.length < PAGE_SIZE) return;
    after = { at: last.cursorAt, id: last.id };
  }
}

/** A JSON value as an item of a top-level list (indented two levels, as JSON.stringify's 2). */
const item = (value: unknown) => `    ${JSON.stringify(value, null, 2).replaceAll("\n", "\n    ")}`;

/** `"name": [ … ]` of the items of `list`'s pages, the first item after `[`, each page one string. */
async function* jsonList<T>(name: string, list: AsyncIterable<T[]>): AsyncGenerator<string> {
  yield `  ${JSON.stringify(name)}: [`;
  let first = true;
  for await (const page of list) {
    yield `${first ? "\n" : ",\n"}${page.map(item).join(",\n")}`;
    first = false;
  }
  yield first ? "]" : "\n  ]";
}

function orderPages(db: Db, userId: string) {
  return ownedPages(orders, userId, () =>
    db
      .select({
        id: orders.id,
        cursorAt: cursorAt(orders),
        createdAt: orders.createdAt,
        status: orders.status,
        productId: orders.productId,
        productName: orders.productName,
        quantity: orders.quantity,
        unitPrice: orders.unitPrice,
        ...orderAmountColumns,
        name: orders.name,
        email: orders.email,
        phone: orders.phone,
        address: orders.address,
        companyName: orders.companyName,
        companyTaxId: orders.companyTaxId,
        transactionId: orders.transactionId,
        paidAt: orders.paidAt,
        shippedAt: orders.shippedAt,
        carrier: orders.carrier,
        trackingNumber: orders.trackingNumber,
        refundedAt: orders.refundedAt,
        expiresAt: orders.expiresAt,
        expiredAt: orders.expiredAt,
        invoiceNumber: invoices.number,
        invoiceIssuedAt: invoices.issuedAt,
        creditNoteNumber: orders.creditNoteNumber,
      })
      .from(orders)
      .leftJoin(invoices, eq(invoices.orderId, orders.id))
      .$dynamic(),
  );
}

/** Each page of orders with its payments and refunds (two queries a page, by the page's ids). */
async function* ordersJson(db: Db, userId: string) {
  for await (const page of orderPages(db, userId)) {
    const ids = page.map((o) => o.id);
    const [paid, refunded] = await Promise.all([
      db
        .select({
          orderId: payments.orderId,
          provider: payments.provider,
          amountCents: payments.amount,
          currency: payments.currency,
          cardBrand: payments.cardBrand,
          cardLast4: payments.cardLast4,
          createdAt: payments.createdAt,
        })
        .from(payments)
        .where(inArray(payments.orderId, ids))
        .orderBy(payments.createdAt),
      db
        .select({
          orderId: refunds.orderId,
          amountCents: refunds.amount,
          reason: refunds.reason,
          reference: refunds.providerRefundId,
          createdAt: refunds.createdAt,
        })
        .from(refunds)
        .where(inArray(refunds.orderId, ids))
        .orderBy(refunds.createdAt),
    ]);
    yield page.map(({ cursorAt: _, invoiceNumber: invoice, creditNoteNumber: credit, ...o }) => ({
      id: o.id,
      number: orderNumber(o.id),
      placedAt: iso(o.createdAt),
      status: o.status,
      statusLabel: orderMessages.status[o.status],
      product: { id: o.productId, name: o.productName },
      quantity: o.quantity,
      unitPrice: o.unitPrice,
      totalPrice: o.totalPrice,
      discountCode: o.discountCode,
      discountCents: o.discountCents,
      netCents: o.netCents,
      taxCents: o.taxCents,
      grossCents: o.grossCents,
      taxRatePercent: o.taxRateBp / 100,
      pricesIncludeTax: o.pricesIncludeTax,
      name: o.name,
      email: o.email,
      phone: o.phone,
      address: o.address,
      companyName: o.companyName,
      companyTaxId: o.companyTaxId,
      transactionId: o.transactionId,
      paidAt: iso(o.paidAt),
      shippedAt: iso(o.shippedAt),
      carrier: o.carrier,
      trackingNumber: o.trackingNumber,
      refundedAt: iso(o.refundedAt),
      holdEndsAt: iso(o.expiresAt),
      expiredAt: iso(o.expiredAt),
      invoiceNumber: invoice === null ? null : invoiceNumber(invoice),
      invoiceIssuedAt: iso(o.invoiceIssuedAt),
      creditNoteNumber: credit === null ? null : creditNoteNumber(credit),
      payments: paid
        .filter((p) => p.orderId === o.id)
        .map(({ orderId: _, createdAt, ...p }) => ({ ...p, createdAt: iso(createdAt) })),
      refunds: refunded
        .filter((r) => r.orderId === o.id)
        .map(({ orderId: _, createdAt, ...r }) => ({ ...r, createdAt: iso(createdAt) })),
    }));
  }
}

async function* reviewsJson(db: Db, userId: string) {
  const list = ownedPages(reviews, userId, () =>
    db
      .select({
        id: reviews.id,
        cursorAt: cursorAt(reviews),
        name: reviews.name,
        rating: reviews.rating,
        comment: reviews.comment,
        createdAt: reviews.createdAt,
        hiddenAt: reviews.hiddenAt,
        hiddenReason: reviews.hiddenReason,
      })
      .from(reviews)
      .$dynamic(),
  );
  for await (const page of list)
    yield page.map((r) => ({
      id: r.id,
      name: r.name,
      rating: r.rating,
      comment: r.comment,
      createdAt: iso(r.createdAt),
      hidden: r.hiddenAt !== null,
      hiddenAt: iso(r.hiddenAt),
      hiddenReason: r.hiddenReason,
    }));
}

function subscriptionPages(db: Db, userId: string) {
  return ownedPages(stockNotices, userId, () =>
    db
      .select({
        id: stockNotices.id,
        cursorAt: cursorAt(stockNotices),
        productId: stockNotices.productId,
        productName: products.name,
        createdAt: stockNotices.createdAt,
        notifiedAt: stockNotices.notifiedAt,
      })
      .from(stockNotices)
      .innerJoin(products, eq(products.id, stockNotices.productId))
      .$dynamic(),
  );
}

async function* subscriptionsJson(db: Db, userId: string) {
  for await (const page of subscriptionPages(db, userId))
    yield page.map((s) => ({
      id: s.id,
      product: { id: s.productId, name: s.productName },
      createdAt: iso(s.createdAt),
      mailedAt: iso(s.notifiedAt),
    }));
}

/** The outbox's rows about `ids` (orders, or subscriptions for back_in_stock), newest first. */
function mailsAbout(db: Db, ids: string[], kind: SQL) {
  return db
    .select({
      kind: mailOutbox.kind,
      about: mailOutbox.orderId,
      createdAt: mailOutbox.createdAt,
      sentAt: mailOutbox.sentAt,
      droppedAt: mailOutbox.droppedAt,
    })
    .from(mailOutbox)
    .where(and(inArray(mailOutbox.orderId, ids), kind))
    .orderBy(sql`${mailOutbox.createdAt} desc`, sql`${mailOutbox.id} desc`);
}

/**
 * The mails about the account's orders, then about its subscriptions: a second walk over both
 * lists (ids only), each page's mails by the outbox's (order_id, kind) index.
 */
async function* mailsJson(db: Db, userId: string) {
  const orderIds = ownedPages(orders, userId, () =>
    db
      .select({ id: orders.id, cursorAt: cursorAt(orders) })
      .from(orders)
      .$dynamic(),
  );
  const view = (m: Awaited<ReturnType<typeof mailsAbout>>[number], about: "order" | "subscription") => ({
    kind: m.kind,
    [about]: m.about,
    createdAt: iso(m.createdAt),
    sentAt: iso(m.sentAt),
    // Not sent, and given up (the order removed first, or the mail server refused it too often).
    givenUpAt: iso(m.droppedAt),
  });
  for await (const page of orderIds) {
    const ids = page.map((o) => o.id);
    const mails = await mailsAbout(db, ids, notInArray(mailOutbox.kind, ["back_in_stock", "low_stock"]));
    if (mails.length > 0) yield mails.map((m) => view(m, "order"));
  }
  for await (const page of subscriptionPages(db, userId)) {
    const mails = await mailsAbout(
      db,
      page.map((s) => s.id),
      eq(mailOutbox.kind, "back_in_stock"),
    );
    if (mails.length > 0) yield mails.map((m) => view(m, "subscription"));
  }
}

/** The account and its profile: one row each, and what counts of the second factors. */
async function accountPart(db: Db, userId: string) {
  const [[user], [profile], [keys], signIns] = await Promise.all([
    db
      .select({
        name: users.name,
        email: users.email,
        emailVerified: users.emailVerified,
        phone: users.phone,
        role: users.role,
        twoFactorEnabled: users.twoFactorEnabled,
        reminderMails: users.reminderMails,
        createdAt: users.createdAt,
        updatedAt: users.updatedAt,
      })
      .from(users)
      .where(eq(users.id, userId)),
    db
      .select({
        address: profiles.address,
        city: profiles.city,
        phone: profiles.phone,
        companyName: profiles.companyName,
        companyTaxId: profiles.companyTaxId,
        createdAt: profiles.createdAt,
        updatedAt: profiles.updatedAt,
      })
      .from(profiles)
      .where(eq(profiles.userId, userId)),
    db.select({ n: count() }).from(passkeys).where(eq(passkeys.userId, userId)),
    // How the account signs in: the provider of each of its accounts ("credential" is a password,
    // never read here), not their tokens.
    db.select({ provider: accounts.providerId }).from(accounts).where(eq(accounts.userId, userId)),
  ]);
  if (!user) return undefined;
  return {
    account: {
      name: user.name,
      email: user.email,
      emailVerified: user.emailVerified,
      phone: user.phone,
      role: user.role,
      createdAt: iso(user.createdAt),
      updatedAt: iso(user.updatedAt),
      signInWith: signIns.map((a) => (a.provider === "credential" ? "password" : a.provider)).sort(),
      secondFactorApp: user.twoFactorEnabled,
      passkeys: keys?.n ?? 0,
      reminderMails: user.reminderMails,
    },
    profile: profile
      ? { ...profile, createdAt: iso(profile.createdAt), updatedAt: iso(profile.updatedAt) }
      : null,
  };
}

/** data.json, as text in pieces: the head (read before the download starts), then each list's pages. */
async function* dataJson(db: Db, userId: string, head: object): AsyncGenerator<string> {
  // The head's closing brace is left off, the lists follow it.
  yield `${JSON.stringify(head, null, 2).slice(0, -2)},\n`;
  yield* jsonList("orders", ordersJson(db, userId));
  yield ",\n";
  yield* jsonList("reviews", reviewsJson(db, userId));
  yield ",\n";
  yield* jsonList("backInStockSubscriptions", subscriptionsJson(db, userId));
  yield ",\n";
  yield* jsonList("mails", mailsJson(db, userId));
  yield "\n}\n";
}

const c = myDataMessages.csv;
const CSV_HEADER = Object.values(c).map(quoted).join(",");
/** An invoice or credit note number as printed (shared/invoices.ts): the prefix, at least six digits. */
const numbered = (prefix: string, n: SQL) =>
  quote(sql`${prefix} || lpad(${n}::text, greatest(6, length(${n}::text)), '0')`);
/** An order's line of orders.csv, written by PostgreSQL; the customer's texts made safe (lib/csv.ts). */
const k = orderCells;
const CSV_LINE = csvLine([
  k.id,
  k.number,
  k.placedAt,
  quote(labelled(sql`${orders.status}::text`, orderMessages.status)),
  k.productName,
  k.quantity,
  k.unitPrice,
  k.totalPrice,
  k.discountCode,
  k.discount,
  k.net,
  k.tax,
  k.taxRate,
  k.gross,
  k.name,
  k.email,
  k.phone,
  k.address,
  k.companyName,
  k.companyTaxId,
  k.transactionId,
  k.paidAt,
  k.shippedAt,
  k.carrier,
  k.trackingNumber,
  k.refundedAt,
  k.expiredAt,
  numbered("GH-", sql`${invoices.number}`),
  numbered("CN-", sql`${orders.creditNoteNumber}`),
]);

/** orders.csv: a UTF-8 byte order mark (Excel), the header, then each page's lines as one string. */
async function* ordersCsv(db: Db, userId: string): AsyncGenerator<string> {
  yield `\uFEFF${CSV_HEADER}\r\n`;
  const list = ownedPages(orders, userId, () =>
    db
      .select({ id: orders.id, cursorAt: cursorAt(orders), line: sql<string>`${CSV_LINE}` })
      .from(orders)
      .leftJoin(invoices, eq(invoices.orderId, orders.id))
      .$dynamic(),
  );
  for await (const page of list) yield page.map((row) => row.line).join("");
}

/**
 * The archive's entries for the account `userId`, or undefined when it is gone. The account is read
 * before this returns, so a database that is away is a proper 503, not a download cut short.
 */
export async function myDataEntries(
  db: Db,
  userId: string,
  options: { mailRetentionDays: number; now: Date },
): Promise<ZipEntry[] | undefined> {
  const part = await accountPart(db, userId);
  if (!part) return undefined;
  const head = {
    about: myDataMessages.file.about,
    exportedAt: options.now.toISOString(),
    notes: {
      reviews: myDataMessages.file.reviews,
      mails: myDataMessages.file.mails(options.mailRetentionDays),
    },
    ...part,
  };
  return [
    { name: "data.json", content: dataJson(db, userId, head) },
    { name: "orders.csv", content: ordersCsv(db, userId) },
  ];
}
