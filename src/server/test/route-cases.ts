import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import sharp from "sharp";
import type { OrderStatus } from "../../shared/orders.js";
import {
  discountCodes,
  emailChanges,
  orders,
  profiles,
  reviews,
  sessions,
  stockNotices,
  users,
} from "../db/schema/index.js";
import { AUTH_GET_PATHS, AUTH_POST_PATHS } from "../features/accounts/auth-routes.js";
import { tokenHash as emailChangeTokenHash } from "../features/accounts/email-change.js";
import { reminderUnsubscribeToken } from "../features/mail-preferences/token.js";
import { unsubscribeToken } from "../features/stock-notices/token.js";
import { createTestApp, madeInBeforeAll, type TestContext } from "./app.js";
import { insertOrder } from "./orders.js";
import { insertProduct } from "./products.js";
import { enrolApp, startApp, totpCode } from "./totp.js";
import { memoryMailer, ORIGIN, signUp, signUpAdmin, type TestUser } from "./users.js";

/**
 * The authorization matrix's world, shared with the security suite: one app, three signed-in people
 * (customers A and B, an admin), a stocked product, and for every /api route a way to prepare a
 * request that succeeds for the right person. Routes come from the app itself (buildApp's `onRoute`),
 * and better-auth's endpoints from `app.auth.api`, so a suite that walks them misses no new route.
 */

export type Actor = "visitor" | "customerA" | "customerB" | "admin";
export type Person = Exclude<Actor, "visitor">;
export const ACTORS: Actor[] = ["visitor", "customerB", "customerA", "admin"];
type Expected = Record<Actor, number>;
export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

export interface Prepared {
  url: string;
  payload?: object | Buffer;
  headers?: Record<string, string>;
}

/** A prepared request sent from the shop's origin, with the actor's cookie when there is one. */
export const sendPrepared = (
  world: RouteWorld,
  method: Method,
  request: Prepared,
  cookie: string | undefined,
) =>
  world.ctx.app.inject({
    method,
    url: request.url,
    headers: { origin: ORIGIN, ...(cookie ? { cookie } : {}), ...request.headers },
    ...(request.payload ? { payload: request.payload } : {}),
  });

export interface RouteCase {
  expect: Expected;
  /** A fresh request for one actor: routes that change their target get a new target per actor. */
  prepare: (world: RouteWorld, actor: Actor) => Promise<Prepared>;
}
export type Entry = RouteCase | { skip: string };

const publicRoute = (ok: number): Expected => ({
  visitor: ok,
  customerA: ok,
  customerB: ok,
  admin: ok,
});
const signedIn = (ok: number): Expected => ({ visitor: 401, customerA: ok, customerB: ok, admin: ok });
/** Customer A owns the target; B is told it does not exist, an admin may act on it. */
const ownerOrAdmin = (ok: number): Expected => ({ visitor: 401, customerA: ok, customerB: 404, admin: ok });
/** Customer A owns the target; to anyone else, admins included, it does not exist. */
const ownerOnly = (ok: number): Expected => ({ visitor: 401, customerA: ok, customerB: 404, admin: 404 });
const adminOnly = (ok: number): Expected => ({ visitor: 401, customerA: 403, customerB: 403, admin: ok });

/** A request to a fixed URL with no body: the same for every actor. */
const at = (url: string, expected: Expected): RouteCase => ({
  expect: expected,
  prepare: async () => ({ url }),
});

/** Whole subtrees left out of the matrix, with the reason. */
const SKIPPED_PREFIXES: Record<string, string> = {
  "/api/docs": "Swagger UI and the OpenAPI document: public and read-only (app.test.ts reads the document)",
};

export const isSkippedPath = (key: string) =>
  Object.keys(SKIPPED_PREFIXES).some((prefix) => {
    const path = key.split(" ")[1] ?? "";
    return path === prefix || path.startsWith(`${prefix}/`);
  });

const ADMIN_EMAIL = "matrix.admin@example.com";

export interface RouteWorld {
  ctx: TestContext;
  /** Every registered route as "METHOD /url", HEAD left out (Fastify's mirror of GET). */
  registered: Set<string>;
  people: Record<Person, TestUser>;
  stockedProductId: string;
  mailer: ReturnType<typeof memoryMailer>;
  cookieOf(actor: Actor): string | undefined;
  /** A fingerprint of every table but those named, to prove a request changed nothing. */
  snapshot(ignoredTables?: readonly string[]): Promise<Record<string, string>>;
}

const post = (world: RouteWorld, url: string, cookie: string, payload: object) =>
  world.ctx.app.inject({ method: "POST", url, headers: { cookie, origin: ORIGIN }, payload });

function newProduct(world: RouteWorld, quantity = 1000): Promise<string> {
  return insertProduct(world.ctx.database.db, { name: `Matrix fan ${randomUUID()}`, price: 12, quantity });
}

/** A product below the booking minimum, which customers may ask to be told about. */
function soldOutProduct(world: RouteWorld): Promise<string> {
  return newProduct(world, 0);
}

/** A review of its own, on show or hidden (by nobody: written so). */
async function aReview(world: RouteWorld, hidden = false): Promise<string> {
  const [row] = await world.ctx.database.db
    .insert(reviews)
    .values({
      name: "Matrix Reviewer",
      comment: "A review the matrix acts on.",
      rating: 4,
      ...(hidden ? { hiddenAt: new Date(), hiddenBy: "matrix@example.com", hiddenReason: "Matrix" } : {}),
    })
    .returning({ id: reviews.id });
  if (!row) throw new Error("no review");
  return row.id;
}

/** The id of a session of a new account of its own (nobody else's to end). */
async function sessionIdOf(world: RouteWorld): Promise<string> {
  const user = await signUp(world.ctx.app);
  const [row] = await world.ctx.database.db
    .select({ id: sessions.id })
    .from(sessions)
    .where(eq(sessions.userId, user.id));
  if (!row) throw new Error("no session");
  return row.id;
}

/** A back-in-stock subscription of customer A, to a product of its own. */
async function noticeOfA(world: RouteWorld): Promise<string> {
  const [row] = await world.ctx.database.db
    .insert(stockNotices)
    .values({ userId: world.people.customerA.id, productId: await soldOutProduct(world) })
    .returning({ id: stockNotices.id });
  return row?.id ?? "";
}

/** A discount code of its own (a fresh code per request where it changes), written as an admin makes it. */
async function aDiscountCode(world: RouteWorld): Promise<string> {
  const [row] = await world.ctx.database.db
    .insert(discountCodes)
    .values({ code: `MATRIX-${randomUUID().slice(0, 8).toUpperCase()}`, kind: "percent", value: 10 })
    .returning({ id: discountCodes.id });
  if (!row) throw new Error("no discount code");
  return row.id;
}

/** An order of customer A, written straight to the database in the given state. */
async function orderOfA(world: RouteWorld, status: OrderStatus): Promise<string> {
  const a = world.people.customerA;
  return insertOrder(world.ctx.database.db, {
    userId: a.id,
    productId: world.stockedProductId,
    productName: "Matrix fan",
    img: "/media/products/gale-120-high-static-pressure-fan.svg",
    name: "Customer A",
    email: a.email,
    address: "1 Loop Road",
    status,
    transactionId: status === "pending" ? null : `pi_${randomUUID()}`,
  });
}

/** A payment intent for a fresh pending order of customer A, made through the API as A. */
export async function intentOfA(world: RouteWorld): Promise<{ orderId: string; clientSecret: string }> {
  const orderId = await orderOfA(world, "pending");
  const res = await post(world, `/api/orders/${orderId}/payment-intent`, world.people.customerA.cookie, {});
  if (res.statusCode !== 200) throw new Error(`payment intent: ${res.statusCode} ${res.body}`);
  return { orderId, clientSecret: res.json().clientSecret };
}

/** An order of customer A paid through the sandbox (a real intent the sandbox can refund). */
async function paidOrderOfA(world: RouteWorld): Promise<string> {
  const { orderId, transactionId } = await confirmedPaymentOfA(world);
  const res = await post(world, `/api/orders/${orderId}/pay`, world.people.customerA.cookie, {
    transactionId,
  });
  if (res.statusCode !== 200) throw new Error(`pay: ${res.statusCode} ${res.body}`);
  return orderId;
}

/** An order of customer A paid through the sandbox, then refunded: it has a credit note (migration 0025). */
async function refundedOrderOfA(world: RouteWorld): Promise<string> {
  const orderId = await paidOrderOfA(world);
  await world.ctx.database.db
    .update(orders)
    .set({ status: "refunded", refundedAt: new Date() })
    .where(eq(orders.id, orderId));
  return orderId;
}

export const sandboxCard = (clientSecret: string) => ({
  clientSecret,
  card: { number: "4242424242424242", expMonth: 12, expYear: new Date().getFullYear() + 2, cvc: "123" },
  billing: { name: "Customer A", email: "a@example.com" },
});

/** A sandbox payment of customer A, confirmed but not yet reported with /pay. */
export async function confirmedPaymentOfA(
  world: RouteWorld,
): Promise<{ orderId: string; transactionId: string }> {
  const { orderId, clientSecret } = await intentOfA(world);
  const confirmed = await post(
    world,
    "/api/payments/sandbox/confirm",
    world.people.customerA.cookie,
    sandboxCard(clientSecret),
  );
  if (confirmed.statusCode !== 200) throw new Error(`confirm: ${confirmed.statusCode} ${confirmed.body}`);
  return { orderId, transactionId: confirmed.json().paymentIntent.id };
}

/** A multipart body with one image file, as a browser's FormData sends it. */
export async function multipartImage(bytes: Uint8Array, filename = "fan.png", type = "image/png") {
  const form = new FormData();
  form.append("image", new Blob([bytes], { type }), filename);
  const encoded = new Response(form);
  return {
    payload: Buffer.from(await encoded.arrayBuffer()),
    headers: { "content-type": encoded.headers.get("content-type") ?? "" },
  };
}

async function imageUpload(): Promise<Prepared> {
  const png = await sharp({
    create: { width: 16, height: 16, channels: 3, background: { r: 200, g: 30, b: 90 } },
  })
    .png()
    .toBuffer();
  return { url: "/api/uploads", ...(await multipartImage(png)) };
}

const newProductBody = {
  name: "Matrix keyboard",
  image: "/media/products/pulse-60-compact-keyboard.svg",
  price: 50,
  quantity: 10,
  description: "Added by the authorization matrix.",
  category: "keyboards",
};

/** Every /api route of the app, keyed "METHOD /url" as registered. */
export const ROUTES: Record<string, Entry> = {
  "GET /api/auth/*": { skip: "better-auth's catch-all: its endpoints are in AUTH_ROUTES below" },
  "POST /api/auth/*": { skip: "better-auth's catch-all: its endpoints are in AUTH_ROUTES below" },

  // Public.
  "GET /api/products": at("/api/products", publicRoute(200)),
  "GET /api/products/:id": {
    expect: publicRoute(200),
    prepare: async (w) => ({ url: `/api/products/${w.stockedProductId}` }),
  },
  "GET /api/reviews": at("/api/reviews", publicRoute(200)),
  "GET /api/images/:file": {
    expect: publicRoute(200),
    prepare: async (w) => {
      const upload = await imageUpload();
      const res = await w.ctx.app.inject({
        method: "POST",
        url: upload.url,
        payload: upload.payload,
        headers: { ...upload.headers, cookie: w.people.admin.cookie, origin: ORIGIN },
      });
      if (res.statusCode !== 201) throw new Error(`upload: ${res.statusCode} ${res.body}`);
      return { url: res.json().url };
    },
  },
  // Signature-checked instead of signed in; the sandbox provider sends no webhooks, so it is "not found".
  "POST /api/payments/webhook": {
    expect: publicRoute(404),
    prepare: async () => ({
      url: "/api/payments/webhook",
      payload: { id: "evt_forged", type: "payment_intent.succeeded" },
      headers: { "stripe-signature": "t=1,v1=forged" },
    }),
  },

  // Signed in, acting on one's own data.
  "GET /api/me": at("/api/me", signedIn(200)),
  "GET /api/session": at("/api/session", publicRoute(200)),
  // Deleting one's own account acts on the session's account only (no target to name): the matrix's
  // people must live on, so each is refused by the body's check (an empty password), which runs
  // before anything is counted or changed. The deletion itself: features/accounts/delete-account.test.ts
  // and security/account-deletion.test.ts.
  "DELETE /api/me": {
    expect: { visitor: 401, customerA: 400, customerB: 400, admin: 400 },
    prepare: async () => ({ url: "/api/me", payload: { password: "" } }),
  },
  "GET /api/account/factors": at("/api/account/factors", signedIn(200)),
  // Download my data: the signed-in account's own, named by nothing in the path.
  "GET /api/me/data": at("/api/me/data", signedIn(200)),
  // Signed-in sessions: a session of someone else's is a 404 to everyone signed in.
  "GET /api/account/sessions": at("/api/account/sessions", signedIn(200)),
  "DELETE /api/account/sessions/:id": {
    expect: { visitor: 401, customerA: 404, customerB: 404, admin: 404 },
    prepare: async (w) => ({ url: `/api/account/sessions/${await sessionIdOf(w)}` }),
  },
  "POST /api/account/sessions/end-others": {
    expect: signedIn(200),
    prepare: async () => ({ url: "/api/account/sessions/end-others", payload: {} }),
  },
  // Change email (features/accounts/email-change.ts): each actor asks with its own password; the
  // link is a throwaway customer's request, and needs no session.
  "POST /api/account/email-change": {
    expect: signedIn(202),
    prepare: async (w, actor) => ({
      url: "/api/account/email-change",
      payload: {
        newEmail: `moved.${randomUUID()}@example.com`,
        password: actor === "visitor" ? "Passw0rd!" : w.people[actor].password,
      },
    }),
  },
  "POST /api/account/email-change/confirm": {
    expect: publicRoute(200),
    prepare: async (w) => ({
      url: "/api/account/email-change/confirm",
      payload: { token: await emailChangeToken(w) },
    }),
  },
  "GET /api/profile": at("/api/profile", signedIn(200)),
  "POST /api/profile": {
    expect: signedIn(201),
    prepare: async (w, actor) => {
      if (actor !== "visitor")
        await w.ctx.database.db.delete(profiles).where(eq(profiles.userId, w.people[actor].id));
      return { url: "/api/profile", payload: { address: "2 Fan Street", city: "Austin", phone: "5550123" } };
    },
  },
  "PUT /api/profile": {
    expect: signedIn(200),
    prepare: async (w, actor) => {
      if (actor !== "visitor")
        await w.ctx.database.db
          .insert(profiles)
          .values({ userId: w.people[actor].id, address: "1 Loop Road", city: "Austin", phone: "5550123" })
          .onConflictDoNothing();
      return { url: "/api/profile", payload: { address: "3 Fan Street", city: "Denver", phone: "5550124" } };
    },
  },
  "POST /api/reviews": {
    expect: signedIn(201),
    prepare: async () => ({ url: "/api/reviews", payload: { comment: "Quiet and bright.", rating: 5 } }),
  },
  // Review moderation: a review of its own per request, so one hidden or reported changes no other.
  "GET /api/reviews/mine": { expect: signedIn(200), prepare: async () => ({ url: "/api/reviews/mine" }) },
  "POST /api/reviews/:id/reports": {
    expect: signedIn(201),
    prepare: async (w) => ({
      url: `/api/reviews/${await aReview(w)}/reports`,
      payload: { reason: "Off topic" },
    }),
  },
  "POST /api/reviews/:id/hide": {
    expect: adminOnly(200),
    prepare: async (w) => ({
      url: `/api/reviews/${await aReview(w)}/hide`,
      payload: { reason: "Off topic" },
    }),
  },
  "POST /api/reviews/:id/restore": {
    expect: adminOnly(200),
    prepare: async (w) => ({ url: `/api/reviews/${await aReview(w, true)}/restore` }),
  },
  "GET /api/admin/review-reports": {
    expect: adminOnly(200),
    prepare: async () => ({ url: "/api/admin/review-reports" }),
  },
  "GET /api/admin/reviews/hidden": {
    expect: adminOnly(200),
    prepare: async () => ({ url: "/api/admin/reviews/hidden" }),
  },
  "POST /api/orders": {
    expect: signedIn(201),
    prepare: async (w) => ({
      url: "/api/orders",
      payload: { productId: w.stockedProductId, quantity: 10, address: "1 Loop Road", phone: "5550123" },
    }),
  },
  "POST /api/orders/quote": {
    expect: signedIn(200),
    prepare: async (w) => ({
      url: "/api/orders/quote",
      payload: { productId: w.stockedProductId, quantity: 10 },
    }),
  },
  "GET /api/orders/mine": at("/api/orders/mine", signedIn(200)),
  "POST /api/uploads": { expect: signedIn(201), prepare: imageUpload },
  "POST /api/payments/sandbox/confirm": {
    expect: ownerOnly(200),
    prepare: async (w) => ({
      url: "/api/payments/sandbox/confirm",
      payload: sandboxCard((await intentOfA(w)).clientSecret),
    }),
  },

  // Customer A's order.
  "GET /api/orders/:id": {
    expect: ownerOrAdmin(200),
    prepare: async (w) => ({ url: `/api/orders/${await orderOfA(w, "pending")}` }),
  },
  "DELETE /api/orders/:id": {
    expect: ownerOrAdmin(204),
    prepare: async (w) => ({ url: `/api/orders/${await orderOfA(w, "pending")}` }),
  },
  "POST /api/orders/:id/payment-intent": {
    expect: ownerOnly(200),
    prepare: async (w) => ({
      url: `/api/orders/${await orderOfA(w, "pending")}/payment-intent`,
      payload: {},
    }),
  },
  "GET /api/orders/:id/invoice.pdf": {
    expect: ownerOrAdmin(200),
    prepare: async (w) => ({ url: `/api/orders/${await paidOrderOfA(w)}/invoice.pdf` }),
  },
  "GET /api/orders/:id/credit-note.pdf": {
    expect: ownerOrAdmin(200),
    prepare: async (w) => ({ url: `/api/orders/${await refundedOrderOfA(w)}/credit-note.pdf` }),
  },
  "POST /api/orders/:id/pay": {
    expect: ownerOnly(200),
    prepare: async (w) => {
      const { orderId, transactionId } = await confirmedPaymentOfA(w);
      return { url: `/api/orders/${orderId}/pay`, payload: { transactionId } };
    },
  },

  // Admin only.
  "GET /api/orders": at("/api/orders", adminOnly(200)),
  "POST /api/stock-notices": {
    expect: signedIn(201),
    prepare: async (w) => ({ url: "/api/stock-notices", payload: { productId: await soldOutProduct(w) } }),
  },
  "GET /api/stock-notices": at("/api/stock-notices", signedIn(200)),
  "DELETE /api/stock-notices/:id": {
    expect: ownerOnly(204),
    prepare: async (w) => ({ url: `/api/stock-notices/${await noticeOfA(w)}` }),
  },
  "POST /api/stock-notices/unsubscribe": {
    expect: publicRoute(204),
    prepare: async (w) => {
      const id = await noticeOfA(w);
      return {
        url: "/api/stock-notices/unsubscribe",
        payload: { id, token: unsubscribeToken(w.ctx.config.authSecret, id) },
      };
    },
  },
  // Mail preferences (issue 34, item 5): the account's own switch; the one-click unsubscribe needs
  // no session (its token names the account), and its GET only sends a browser to the page.
  "GET /api/me/mail-preferences": at("/api/me/mail-preferences", signedIn(200)),
  "PUT /api/me/mail-preferences": {
    expect: signedIn(200),
    prepare: async () => ({ url: "/api/me/mail-preferences", payload: { reminderMails: true } }),
  },
  "POST /api/mail/unsubscribe": {
    expect: publicRoute(200),
    // An account of its own each time: nobody else's reminders are turned off.
    prepare: async (w) => ({
      url: `/api/mail/unsubscribe?token=${reminderUnsubscribeToken(w.ctx.config.authSecret, (await signUp(w.ctx.app)).id)}`,
    }),
  },
  "GET /api/mail/unsubscribe": {
    expect: publicRoute(303),
    prepare: async (w) => ({
      url: `/api/mail/unsubscribe?token=${reminderUnsubscribeToken(w.ctx.config.authSecret, w.people.customerA.id)}`,
    }),
  },
  "POST /api/products/import": {
    expect: adminOnly(200),
    prepare: async () => ({
      url: "/api/products/import",
      headers: { "content-type": "text/csv" },
      payload: Buffer.from(
        "sku,name,category,price,quantity,description,threshold,image\nMATRIX-1,Matrix fan,cooling-fans,12,100,A fan.,,/media/products/gale-120-high-static-pressure-fan.svg\n",
      ),
    }),
  },
  "GET /api/products/export.csv": at("/api/products/export.csv", adminOnly(200)),
  "GET /api/orders/export.csv": at("/api/orders/export.csv", adminOnly(200)),
  "POST /api/orders/:id/ship": {
    expect: adminOnly(200),
    prepare: async (w) => ({ url: `/api/orders/${await orderOfA(w, "paid")}/ship` }),
  },
  "POST /api/orders/:id/refund": {
    expect: adminOnly(200),
    prepare: async (w) => ({ url: `/api/orders/${await paidOrderOfA(w)}/refund` }),
  },
  "POST /api/products": {
    expect: adminOnly(201),
    prepare: async () => ({ url: "/api/products", payload: newProductBody }),
  },
  "PATCH /api/products/:id": {
    expect: adminOnly(200),
    prepare: async (w) => ({ url: `/api/products/${await newProduct(w)}`, payload: { quantity: 77 } }),
  },
  "POST /api/products/:id/archive": {
    expect: adminOnly(200),
    prepare: async (w) => ({ url: `/api/products/${await newProduct(w)}/archive` }),
  },
  "POST /api/products/:id/restore": {
    expect: adminOnly(200),
    prepare: async (w) => ({ url: `/api/products/${await newProduct(w)}/restore` }),
  },
  "DELETE /api/products/:id": {
    expect: adminOnly(204),
    prepare: async (w) => ({ url: `/api/products/${await newProduct(w)}` }),
  },
  "GET /api/admin/products": at("/api/admin/products?archived=true", adminOnly(200)),
  "GET /api/admin/products/:id": {
    expect: adminOnly(200),
    prepare: async (w) => ({ url: `/api/admin/products/${w.stockedProductId}` }),
  },
  "GET /api/users": at("/api/users", adminOnly(200)),
  "DELETE /api/users/:id": {
    expect: adminOnly(204),
    prepare: async (w) => ({ url: `/api/users/${(await signUp(w.ctx.app)).id}` }),
  },
  "DELETE /api/users/:id/sessions": {
    expect: adminOnly(200),
    prepare: async (w) => ({ url: `/api/users/${(await signUp(w.ctx.app)).id}/sessions` }),
  },
  "PUT /api/users/:id/role": {
    expect: adminOnly(200),
    prepare: async (w) => ({
      url: `/api/users/${(await signUp(w.ctx.app)).id}/role`,
      payload: { role: "admin" },
    }),
  },
  "GET /api/admin/overview": at("/api/admin/overview", adminOnly(200)),
  "GET /api/admin/sales": at("/api/admin/sales", adminOnly(200)),
  "GET /api/admin/activity": at("/api/admin/activity", adminOnly(200)),
  "GET /api/admin/activity.csv": at("/api/admin/activity.csv", adminOnly(200)),
  // The stock ledger (features/stock): a product of its own per request where it changes.
  "GET /api/products/:id/stock": {
    expect: adminOnly(200),
    prepare: async (w) => ({ url: `/api/products/${w.stockedProductId}/stock` }),
  },
  "POST /api/products/:id/stock/adjustments": {
    expect: adminOnly(200),
    prepare: async (w) => ({
      url: `/api/products/${await newProduct(w)}/stock/adjustments`,
      payload: { mode: "add", units: 5, note: "Matrix restock" },
    }),
  },
  "PUT /api/products/:id/stock/threshold": {
    expect: adminOnly(200),
    prepare: async (w) => ({
      url: `/api/products/${await newProduct(w)}/stock/threshold`,
      payload: { threshold: 20 },
    }),
  },
  "GET /api/products/:id/stock/movements": {
    expect: adminOnly(200),
    prepare: async (w) => ({ url: `/api/products/${w.stockedProductId}/stock/movements` }),
  },
  "GET /api/products/:id/stock/movements.csv": {
    expect: adminOnly(200),
    prepare: async (w) => ({ url: `/api/products/${w.stockedProductId}/stock/movements.csv` }),
  },
  // Discount codes and the tax settings (features/discounts).
  "GET /api/admin/discount-codes": at("/api/admin/discount-codes", adminOnly(200)),
  "POST /api/admin/discount-codes": {
    expect: adminOnly(201),
    prepare: async () => ({
      url: "/api/admin/discount-codes",
      payload: { code: `MATRIX-${randomUUID().slice(0, 8).toUpperCase()}`, kind: "amount", value: 500 },
    }),
  },
  "GET /api/admin/discount-codes/:id": {
    expect: adminOnly(200),
    prepare: async (w) => ({ url: `/api/admin/discount-codes/${await aDiscountCode(w)}` }),
  },
  "POST /api/admin/discount-codes/:id/end": {
    expect: adminOnly(200),
    prepare: async (w) => ({ url: `/api/admin/discount-codes/${await aDiscountCode(w)}/end` }),
  },
  "GET /api/admin/settings/tax": at("/api/admin/settings/tax", adminOnly(200)),
  "PUT /api/admin/settings/tax": {
    expect: adminOnly(200),
    // Prices with tax included: what customers pay stays as it was for the other cases.
    prepare: async () => ({
      url: "/api/admin/settings/tax",
      payload: { ratePercent: 8.25, pricesIncludeTax: true, taxId: "MATRIX-1" },
    }),
  },
};

/** A better-auth request, sent by a throwaway customer made for it (so it may end its own session). */
export interface AuthCase {
  /** Whether the customer's session cookie goes along. */
  session: boolean;
  /** The status of the prepared request as it is. */
  ok: number;
  prepare: (world: RouteWorld, self: TestUser) => Promise<Prepared>;
}

/** The raw session token inside a session cookie (the part before better-call's signature). */
export const sessionTokenOf = (cookie: string) =>
  decodeURIComponent(cookie.match(/gearhouse\.session_token=([^;]+)/)?.[1] ?? "").split(".")[0] ?? "";

/** A reset token for the user, asked for through the API and read from the mail it sends. */
async function resetTokenOf(world: RouteWorld, email: string): Promise<string> {
  const res = await world.ctx.app.inject({
    method: "POST",
    url: "/api/auth/request-password-reset",
    headers: { origin: ORIGIN },
    payload: { email },
  });
  if (res.statusCode !== 200) throw new Error(`reset request: ${res.statusCode} ${res.body}`);
  const mail = world.mailer.sent.findLast((m) => m.to === email && m.subject.includes("Reset"));
  return new URL(mail?.text.match(/https?:\/\/\S+/)?.[0] ?? "http://x").searchParams.get("token") ?? "";
}

/** The token of a waiting email change of a throwaway customer's, as its mailed link carries it. */
async function emailChangeToken(world: RouteWorld): Promise<string> {
  const { id } = await signUp(world.ctx.app);
  const token = randomUUID();
  await world.ctx.database.db.insert(emailChanges).values({
    userId: id,
    newEmail: `confirmed.${randomUUID()}@example.com`,
    tokenHash: emailChangeTokenHash(token),
    expiresAt: new Date(Date.now() + 60 * 60 * 1000),
  });
  return token;
}

/** A credential of the right shape that no challenge asked for. */
const UNASKED_CREDENTIAL = {
  id: "AAAA",
  rawId: "AAAA",
  type: "public-key",
  response: { clientDataJSON: "e30", attestationObject: "oA", authenticatorData: "AA", signature: "AA" },
};

/**
 * Every better-auth POST endpoint the shop serves (AUTH_POST_PATHS in features/accounts/auth-routes.ts); the others
 * answer 404 to everyone, which the suites check from `app.auth.api`.
 */
export const AUTH_ROUTES: Record<string, AuthCase> = authCases({
  "/sign-up/email": {
    session: false,
    ok: 200,
    payload: () => ({
      name: "New Customer",
      email: `new.${randomUUID()}@example.com`,
      password: "Passw0rd!",
      phone: "5550123",
    }),
  },
  "/sign-in/email": {
    session: false,
    ok: 200,
    payload: (_w, self) => ({ email: self.email, password: self.password }),
  },
  // Google is not configured on the suites' app, so better-auth's answer is a clear 404.
  "/sign-in/social": { session: false, ok: 404, payload: () => ({ provider: "google", callbackURL: "/" }) },
  "/sign-out": { session: true, ok: 200 },
  "/request-password-reset": { session: false, ok: 200, payload: (_w, self) => ({ email: self.email }) },
  "/reset-password": {
    session: false,
    ok: 200,
    payload: async (w, self) => ({ token: await resetTokenOf(w, self.email), newPassword: "N3wPassword" }),
  },
  "/change-password": {
    session: true,
    ok: 200,
    payload: (_w, self) => ({
      currentPassword: self.password,
      newPassword: "N3wPassword",
      revokeOtherSessions: true,
    }),
  },
  "/update-user": { session: true, ok: 200, payload: () => ({ name: "Renamed Customer", phone: "5550999" }) },
  "/revoke-session": {
    session: true,
    ok: 200,
    payload: (_w, self) => ({ token: sessionTokenOf(self.cookie) }),
  },
  "/revoke-sessions": { session: true, ok: 200 },
  "/revoke-other-sessions": { session: true, ok: 200 },
  // Second factors: an app's first code, a step-up with a backup code, new codes, the app removed.
  "/two-factor/enable": { session: true, ok: 200, payload: (_w, self) => ({ password: self.password }) },
  "/two-factor/verify-totp": {
    session: true,
    ok: 200,
    payload: async (w, self) => ({ code: totpCode((await startApp(w.ctx.app, self)).secret) }),
  },
  "/two-factor/verify-backup-code": {
    session: true,
    ok: 200,
    payload: async (w, self) => ({ code: (await enrolApp(w.ctx.app, self)).backupCodes[0] }),
  },
  "/two-factor/generate-backup-codes": {
    session: true,
    ok: 200,
    payload: async (w, self) => (await enrolApp(w.ctx.app, self)) && { password: self.password },
  },
  "/two-factor/disable": {
    session: true,
    ok: 200,
    payload: async (w, self) => (await enrolApp(w.ctx.app, self)) && { password: self.password },
  },
  // A passkey's ceremony needs an authenticator (e2e/second-factor.spec.ts has Chromium's); here a
  // response without its challenge is refused.
  "/passkey/verify-registration": {
    session: true,
    ok: 400,
    payload: () => ({ response: UNASKED_CREDENTIAL }),
  },
  "/passkey/verify-authentication": {
    session: false,
    ok: 400,
    payload: () => ({ response: UNASKED_CREDENTIAL }),
  },
  "/passkey/delete-passkey": {
    session: true,
    ok: 404,
    payload: (_w, self) => ({ id: randomUUID(), password: self.password }),
  },
  // For the session's own address, which the throwaway customer has not verified yet.
  "/send-verification-email": {
    session: true,
    ok: 200,
    payload: async (w, self) => {
      await w.ctx.app.db.update(users).set({ emailVerified: false }).where(eq(users.id, self.id));
      return { callbackURL: "/orders" };
    },
  },
});

/** Each endpoint's case: a POST to /api/auth + its path, with its payload (an empty object if none). */
function authCases(
  cases: Record<
    string,
    Omit<AuthCase, "prepare"> & { payload?: (world: RouteWorld, self: TestUser) => object | Promise<object> }
  >,
): Record<string, AuthCase> {
  return Object.fromEntries(
    Object.entries(cases).map(([path, { session, ok, payload }]) => [
      path,
      {
        session,
        ok,
        prepare: async (world, self) => ({
          url: `/api/auth${path}`,
          payload: (await payload?.(world, self)) ?? {},
        }),
      },
    ]),
  );
}

/** better-auth's endpoints that take `method`, as "/path" under /api/auth, read from the running app. */
export function authEndpointPaths(app: FastifyInstance, method: "GET" | "POST"): string[] {
  const paths = new Set<string>();
  for (const endpoint of Object.values(app.auth.api)) {
    const { path, options } = endpoint as { path?: string; options?: { method?: string | string[] } };
    const methods = [options?.method ?? []].flat();
    if (path && (methods.includes(method) || methods.includes("*"))) paths.add(path);
  }
  return [...paths].sort();
}

/** better-auth's endpoints that take POST, as "/path" under /api/auth, read from the running app. */
export const authPostPaths = (world: RouteWorld): string[] => authEndpointPaths(world.ctx.app, "POST");

/** A better-auth path with its parameters filled in (`:id` → the shop's one provider, "google"). */
export const authUrl = (path: string) => `/api/auth${path.replace(/:[a-zA-Z]+/g, "google")}`;

export { AUTH_GET_PATHS, AUTH_POST_PATHS };

/**
 * Builds the world on a fresh database. `rateLimit`, the review limit and the upload quota stay
 * high: the suites send many sign-ins, reviews and uploads; security/authentication.test.ts,
 * security/review-flooding.test.ts and security/upload-quotas.test.ts check the real limits on
 * apps of their own.
 */
async function createRouteWorld(env: Record<string, string> = {}): Promise<RouteWorld> {
  const registered = new Set<string>();
  const mailer = memoryMailer();
  const ctx = await createTestApp(
    {
      REVIEW_LIMIT_PER_HOUR: "100000",
      UPLOAD_LIMIT_PER_DAY: "100000",
      UPLOAD_MB_PER_DAY: "100000",
      UPLOAD_CONCURRENCY_PER_ACCOUNT: "1000",
      INVOICE_DOWNLOADS_PER_HOUR: "100000",
      ...env,
    },
    {
      mailer,
      rateLimit: { max: 100_000, windowSeconds: 60 },
      onRoute: (route) => {
        for (const method of [route.method].flat())
          if (method !== "HEAD") registered.add(`${method} ${route.url}`);
      },
    },
  );
  const world: RouteWorld = {
    ctx,
    registered,
    mailer,
    people: {} as Record<Person, TestUser>,
    stockedProductId: "",
    cookieOf: (actor) => (actor === "visitor" ? undefined : world.people[actor].cookie),
    snapshot: (ignored = []) => snapshot(ctx, ignored),
  };
  world.people.customerA = await signUp(ctx.app, { name: "Customer A" });
  world.people.customerB = await signUp(ctx.app, { name: "Customer B" });
  world.people.admin = await signUpAdmin(ctx.app, { email: ADMIN_EMAIL, name: "Matrix Admin" });
  world.stockedProductId = await newProduct(world);
  return world;
}

/** The test file's world (createRouteWorld): made in a `beforeAll`, its app closed in an `afterAll`. */
export function setUpRouteWorld(env: Record<string, string> = {}): RouteWorld {
  return madeInBeforeAll(
    "The route world",
    ["ctx", "registered", "people", "stockedProductId", "mailer", "cookieOf", "snapshot"],
    () => createRouteWorld(env),
    (world) => world.ctx.close(),
  );
}

/**
 * A fingerprint of every row of every table in the public schema, so a refused request that wrote
 * anything anywhere (or a table added later) is caught.
 */
/**
 * Columns a request writes whatever it asks, left out of a table's digest: a signed-in request
 * writes its session's last use once in five minutes (touchSession), which a long run under load
 * crosses.
 */
const VOLATILE: Record<string, readonly string[]> = { session: ["updated_at"] };

async function snapshot(ctx: TestContext, ignored: readonly string[]): Promise<Record<string, string>> {
  const tables = await ctx.database.pool.query<{ name: string }>(
    "select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by 1",
  );
  const parts = tables.rows
    .filter(({ name }) => !ignored.includes(name))
    .map(({ name }) => {
      const row = VOLATILE[name]
        ? `(to_jsonb(t) - array[${VOLATILE[name].map((c) => `'${c}'`).join(", ")}])::text`
        : "t::text";
      return `select '${name}' as name, md5(coalesce(string_agg(${row}, '|' order by ${row}), '')) as digest from "${name}" t`;
    });
  const result = await ctx.database.pool.query<{ name: string; digest: string }>(
    `select * from (${parts.join(" union all ")}) digests order by name`,
  );
  return Object.fromEntries(result.rows.map((r) => [r.name, r.digest]));
}
