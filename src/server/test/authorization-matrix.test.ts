import { randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OrderStatus } from "../../shared/orders.js";
import { orders, products, profiles } from "../db/schema/index.js";
import { createTestApp, type TestContext } from "./app.js";
import { ORIGIN, signUp, type TestUser } from "./users.js";

/**
 * Every /api route × {visitor, customer A, customer B, admin}: the status each gets, and that a
 * refused request changed nothing in the database.
 *
 * The routes come from the app itself: buildApp's `onRoute` option hears of every route as it is
 * registered, so a new route without a row in ROUTES below fails the first test. (Reading
 * `printRoutes()` would mean parsing a drawing of the router tree, and the OpenAPI document leaves
 * out hidden routes.)
 */

type Actor = "visitor" | "customerA" | "customerB" | "admin";
const ACTORS: Actor[] = ["visitor", "customerB", "customerA", "admin"];
type Expected = Record<Actor, number>;

interface Prepared {
  url: string;
  payload?: object | Buffer;
  headers?: Record<string, string>;
}

interface RouteCase {
  expect: Expected;
  /** A fresh request for one actor: routes that change their target get a new target per actor. */
  prepare: (actor: Actor) => Promise<Prepared>;
}
type Entry = RouteCase | { skip: string };

const publicRoute = (ok: number): Expected => ({ visitor: ok, customerA: ok, customerB: ok, admin: ok });
const signedIn = (ok: number): Expected => ({ visitor: 401, customerA: ok, customerB: ok, admin: ok });
/** Customer A owns the target; B is told it does not exist, an admin may act on it. */
const ownerOrAdmin = (ok: number): Expected => ({ visitor: 401, customerA: ok, customerB: 404, admin: ok });
/** Customer A owns the target; to anyone else, admins included, it does not exist. */
const ownerOnly = (ok: number): Expected => ({ visitor: 401, customerA: ok, customerB: 404, admin: 404 });
const adminOnly = (ok: number): Expected => ({ visitor: 401, customerA: 403, customerB: 403, admin: ok });

/** Whole subtrees left out of the matrix, with the reason. */
const SKIPPED_PREFIXES: Record<string, string> = {
  "/api/docs": "Swagger UI and the OpenAPI document: public and read-only (app.test.ts reads the document)",
};

const ADMIN_EMAIL = "matrix.admin@example.com";
let ctx: TestContext;
const registered = new Set<string>();
const people = {} as Record<Exclude<Actor, "visitor">, TestUser>;
let stockedProductId = "";

const cookieOf = (actor: Actor) => (actor === "visitor" ? undefined : people[actor].cookie);
const post = (url: string, cookie: string, payload: object) =>
  ctx.app.inject({ method: "POST", url, headers: { cookie, origin: ORIGIN }, payload });

async function newProduct(): Promise<string> {
  const [row] = await ctx.database.db
    .insert(products)
    .values({
      name: `Matrix fan ${randomUUID()}`,
      description: "A fan for the authorization matrix.",
      image: "/media/products/gale-120-high-static-pressure-fan.svg",
      price: 12,
      quantity: 1000,
      category: "cooling-fans",
    })
    .returning({ id: products.id });
  return row?.id ?? "";
}

/** An order of customer A, written straight to the database in the given state. */
async function orderOfA(status: OrderStatus): Promise<string> {
  const a = people.customerA;
  const [row] = await ctx.database.db
    .insert(orders)
    .values({
      userId: a.id,
      productId: stockedProductId,
      productName: "Matrix fan",
      img: "/media/products/gale-120-high-static-pressure-fan.svg",
      name: "Customer A",
      email: a.email,
      address: "1 Loop Road",
      phone: "5550123",
      quantity: 10,
      unitPrice: 12,
      totalPrice: 120,
      status,
      transactionId: status === "pending" ? null : `pi_${randomUUID()}`,
    })
    .returning({ id: orders.id });
  return row?.id ?? "";
}

/** A payment intent for a fresh pending order of customer A, made through the API as A. */
async function intentOfA(): Promise<{ orderId: string; clientSecret: string }> {
  const orderId = await orderOfA("pending");
  const res = await post(`/api/orders/${orderId}/payment-intent`, people.customerA.cookie, {});
  if (res.statusCode !== 200) throw new Error(`payment intent: ${res.statusCode} ${res.body}`);
  return { orderId, clientSecret: res.json().clientSecret };
}

const sandboxCard = (clientSecret: string) => ({
  clientSecret,
  card: { number: "4242424242424242", expMonth: 12, expYear: new Date().getFullYear() + 2, cvc: "123" },
  billing: { name: "Customer A", email: "a@example.com" },
});

async function imageUpload(): Promise<Prepared> {
  const png = await sharp({
    create: { width: 16, height: 16, channels: 3, background: { r: 200, g: 30, b: 90 } },
  })
    .png()
    .toBuffer();
  const boundary = `----matrix${randomUUID()}`;
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="fan.png"\r\nContent-Type: image/png\r\n\r\n`,
    ),
    png,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return {
    url: "/api/uploads",
    payload,
    headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
  };
}

const newProductBody = {
  name: "Matrix keyboard",
  image: "/media/products/pulse-60-compact-keyboard.svg",
  price: 50,
  quantity: 10,
  description: "Added by the authorization matrix.",
  category: "keyboards",
};

const ROUTES: Record<string, Entry> = {
  "GET /api/auth/*": { skip: "better-auth's catch-all; covered by features/accounts/routes.test.ts" },
  "POST /api/auth/*": { skip: "better-auth's catch-all; covered by features/accounts/routes.test.ts" },

  // Public.
  "GET /api/products": { expect: publicRoute(200), prepare: async () => ({ url: "/api/products" }) },
  "GET /api/products/:id": {
    expect: publicRoute(200),
    prepare: async () => ({ url: `/api/products/${stockedProductId}` }),
  },
  "GET /api/reviews": { expect: publicRoute(200), prepare: async () => ({ url: "/api/reviews" }) },
  "GET /api/images/:file": {
    expect: publicRoute(200),
    prepare: async () => {
      const upload = await imageUpload();
      const res = await ctx.app.inject({
        method: "POST",
        url: upload.url,
        payload: upload.payload,
        headers: { ...upload.headers, cookie: people.admin.cookie, origin: ORIGIN },
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
  "GET /api/me": { expect: signedIn(200), prepare: async () => ({ url: "/api/me" }) },
  "GET /api/profile": { expect: signedIn(200), prepare: async () => ({ url: "/api/profile" }) },
  "POST /api/profile": {
    expect: signedIn(201),
    prepare: async (actor) => {
      if (actor !== "visitor")
        await ctx.database.db.delete(profiles).where(eq(profiles.userId, people[actor].id));
      return { url: "/api/profile", payload: { address: "2 Fan Street", city: "Austin", phone: "5550123" } };
    },
  },
  "PUT /api/profile": {
    expect: signedIn(200),
    prepare: async (actor) => {
      if (actor !== "visitor")
        await ctx.database.db
          .insert(profiles)
          .values({ userId: people[actor].id, address: "1 Loop Road", city: "Austin", phone: "5550123" })
          .onConflictDoNothing();
      return { url: "/api/profile", payload: { address: "3 Fan Street", city: "Denver", phone: "5550124" } };
    },
  },
  "POST /api/reviews": {
    expect: signedIn(201),
    prepare: async () => ({ url: "/api/reviews", payload: { comment: "Quiet and bright.", rating: 5 } }),
  },
  "POST /api/orders": {
    expect: signedIn(201),
    prepare: async () => ({
      url: "/api/orders",
      payload: { productId: stockedProductId, quantity: 10, address: "1 Loop Road", phone: "5550123" },
    }),
  },
  "GET /api/orders/mine": { expect: signedIn(200), prepare: async () => ({ url: "/api/orders/mine" }) },
  "POST /api/uploads": { expect: signedIn(201), prepare: imageUpload },
  "POST /api/payments/sandbox/confirm": {
    expect: ownerOnly(200),
    prepare: async () => ({
      url: "/api/payments/sandbox/confirm",
      payload: sandboxCard((await intentOfA()).clientSecret),
    }),
  },

  // Customer A's order.
  "GET /api/orders/:id": {
    expect: ownerOrAdmin(200),
    prepare: async () => ({ url: `/api/orders/${await orderOfA("pending")}` }),
  },
  "DELETE /api/orders/:id": {
    expect: ownerOrAdmin(204),
    prepare: async () => ({ url: `/api/orders/${await orderOfA("pending")}` }),
  },
  "POST /api/orders/:id/payment-intent": {
    expect: ownerOnly(200),
    prepare: async () => ({ url: `/api/orders/${await orderOfA("pending")}/payment-intent`, payload: {} }),
  },
  "POST /api/orders/:id/pay": {
    expect: ownerOnly(200),
    prepare: async (actor) => {
      const { orderId, clientSecret } = await intentOfA();
      if (actor !== "customerA")
        return { url: `/api/orders/${orderId}/pay`, payload: { transactionId: `pi_${randomUUID()}` } };
      const confirmed = await post(
        "/api/payments/sandbox/confirm",
        people.customerA.cookie,
        sandboxCard(clientSecret),
      );
      if (confirmed.statusCode !== 200) throw new Error(`confirm: ${confirmed.statusCode} ${confirmed.body}`);
      return {
        url: `/api/orders/${orderId}/pay`,
        payload: { transactionId: confirmed.json().paymentIntent.id },
      };
    },
  },

  // Admin only.
  "GET /api/orders": { expect: adminOnly(200), prepare: async () => ({ url: "/api/orders" }) },
  "POST /api/orders/:id/ship": {
    expect: adminOnly(200),
    prepare: async () => ({ url: `/api/orders/${await orderOfA("paid")}/ship` }),
  },
  "POST /api/products": {
    expect: adminOnly(201),
    prepare: async () => ({ url: "/api/products", payload: newProductBody }),
  },
  "PATCH /api/products/:id": {
    expect: adminOnly(200),
    prepare: async () => ({ url: `/api/products/${await newProduct()}`, payload: { quantity: 77 } }),
  },
  "GET /api/users": { expect: adminOnly(200), prepare: async () => ({ url: "/api/users" }) },
  "DELETE /api/users/:id": {
    expect: adminOnly(204),
    prepare: async () => ({ url: `/api/users/${(await signUp(ctx.app)).id}` }),
  },
  "PUT /api/users/:id/role": {
    expect: adminOnly(200),
    prepare: async () => ({
      url: `/api/users/${(await signUp(ctx.app)).id}/role`,
      payload: { role: "admin" },
    }),
  },
  "GET /api/admin/overview": {
    expect: adminOnly(200),
    prepare: async () => ({ url: "/api/admin/overview" }),
  },
};

/**
 * A fingerprint of every row of every table in the public schema, so a refused request that wrote
 * anything anywhere (or a table added later) is caught.
 */
async function snapshot(): Promise<Record<string, string>> {
  const tables = await ctx.database.pool.query<{ name: string }>(
    "select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by 1",
  );
  const parts = tables.rows.map(
    ({ name }) =>
      `select '${name}' as name, md5(coalesce(string_agg(t::text, '|' order by t::text), '')) as digest from "${name}" t`,
  );
  const result = await ctx.database.pool.query<{ name: string; digest: string }>(parts.join(" union all "));
  return Object.fromEntries(result.rows.map((r) => [r.name, r.digest]));
}

beforeAll(async () => {
  ctx = await createTestApp(
    { ADMIN_EMAILS: ADMIN_EMAIL },
    {
      rateLimit: { max: 10_000, windowSeconds: 60 },
      onRoute: (route) => {
        // HEAD is Fastify's mirror of GET (same hooks and handler), so the GET row covers it.
        for (const method of [route.method].flat())
          if (method !== "HEAD") registered.add(`${method} ${route.url}`);
      },
    },
  );
  people.customerA = await signUp(ctx.app, { name: "Customer A" });
  people.customerB = await signUp(ctx.app, { name: "Customer B" });
  people.admin = await signUp(ctx.app, { email: ADMIN_EMAIL, name: "Matrix Admin" });
  stockedProductId = await newProduct();
});
afterAll(async () => {
  await ctx?.close();
});

const isSkippedPath = (key: string) =>
  Object.keys(SKIPPED_PREFIXES).some((prefix) => {
    const path = key.split(" ")[1] ?? "";
    return path === prefix || path.startsWith(`${prefix}/`);
  });

describe("authorization matrix", () => {
  it("has a row for every registered /api route", () => {
    const apiRoutes = [...registered].filter((key) => (key.split(" ")[1] ?? "").startsWith("/api"));
    expect(apiRoutes.length).toBeGreaterThan(20);
    const missing = apiRoutes.filter((key) => !(key in ROUTES) && !isSkippedPath(key));
    expect(missing, "add these routes to ROUTES in authorization-matrix.test.ts").toEqual([]);
  });

  it("lists only registered routes, apart from those not registered yet", () => {
    const stale = Object.keys(ROUTES).filter((key) => !registered.has(key));
    expect(stale).toEqual([]);
  });

  for (const [key, entry] of Object.entries(ROUTES)) {
    if ("skip" in entry) continue;
    it(`${key}: ${ACTORS.map((a) => `${a} ${entry.expect[a]}`).join(", ")}`, async () => {
      const method = key.split(" ")[0] as "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
      for (const actor of ACTORS) {
        const request = await entry.prepare(actor);
        const cookie = cookieOf(actor);
        const before = await snapshot();
        const res = await ctx.app.inject({
          method,
          url: request.url,
          headers: { origin: ORIGIN, ...(cookie ? { cookie } : {}), ...request.headers },
          ...(request.payload ? { payload: request.payload } : {}),
        });
        expect(res.statusCode, `${actor}: ${res.body.slice(0, 300)}`).toBe(entry.expect[actor]);
        if (res.statusCode >= 400)
          expect(await snapshot(), `${actor} was refused but changed data`).toEqual(before);
      }
    });
  }
});

describe("the matrix's own fixtures", () => {
  it("signs in customers A and B as customers and the admin as an admin", async () => {
    const role = async (actor: Exclude<Actor, "visitor">) =>
      (await ctx.app.inject({ url: "/api/me", headers: { cookie: people[actor].cookie } })).json().role;
    expect(await role("customerA")).toBe("user");
    expect(await role("customerB")).toBe("user");
    expect(await role("admin")).toBe("admin");
  });

  it("notices a change to any row", async () => {
    const before = await snapshot();
    await ctx.database.db
      .update(products)
      .set({ quantity: sql`${products.quantity} + 1` })
      .where(eq(products.id, stockedProductId));
    expect(await snapshot()).not.toEqual(before);
  });
});
