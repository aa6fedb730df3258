import { inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { orders, users } from "../../db/schema/index.js";
import { signedUpInBeforeAll } from "../app.js";
import {
  ACTORS,
  AUTH_POST_PATHS,
  AUTH_ROUTES,
  authPostPaths,
  confirmedPaymentOfA,
  intentOfA,
  type Method,
  type Prepared,
  ROUTES,
  sandboxCard,
  sendPrepared,
  sessionTokenOf,
  setUpRouteWorld,
} from "../route-cases.js";
import { ORIGIN, signUp } from "../users.js";
import { readZip } from "../zip-reader.js";

/**
 * ASVS V4 (access control) beyond the authorization matrix: customer B naming customer A's
 * resources, and bodies that try to set what the server owns.
 */

const world = setUpRouteWorld();
/** A customer who never sends anything: no row may come to belong to them. */
const bystander = signedUpInBeforeAll(() => world.ctx.app, { name: "Bystander" });

const send = (method: Method, request: Prepared, cookie: string | undefined) =>
  sendPrepared(world, method, request, cookie);

/** Routes that take an id in their path, and why customer B naming A's is not a swap to test. */
const NOT_OWNED: Record<string, string> = {
  "GET /api/products/:id": "the catalog is public",
  "GET /api/images/:file": "images are public and content-addressed",
  "POST /api/orders/:id/ship": "admins only: customers get 403 (authorization matrix)",
  "POST /api/orders/:id/refund": "admins only: customers get 403 (authorization matrix)",
  "PATCH /api/products/:id": "admins only: customers get 403 (authorization matrix)",
  "DELETE /api/products/:id": "admins only: customers get 403 (authorization matrix)",
  "POST /api/products/:id/archive": "admins only: customers get 403 (authorization matrix)",
  "POST /api/products/:id/restore": "admins only: customers get 403 (authorization matrix)",
  "GET /api/admin/products/:id": "admins only: customers get 403 (authorization matrix)",
  "GET /api/products/:id/stock": "admins only: customers get 403 (authorization matrix)",
  "POST /api/products/:id/stock/adjustments": "admins only: customers get 403 (authorization matrix)",
  "PUT /api/products/:id/stock/threshold": "admins only: customers get 403 (authorization matrix)",
  "GET /api/products/:id/stock/movements": "admins only: customers get 403 (authorization matrix)",
  "GET /api/products/:id/stock/movements.csv": "admins only: customers get 403 (authorization matrix)",
  "DELETE /api/users/:id": "admins only: customers get 403 (authorization matrix)",
  "PUT /api/users/:id/role": "admins only: customers get 403 (authorization matrix)",
  "DELETE /api/users/:id/sessions": "admins only: customers get 403 (authorization matrix)",
  "POST /api/reviews/:id/hide": "admins only: customers get 403 (authorization matrix)",
  "POST /api/reviews/:id/restore": "admins only: customers get 403 (authorization matrix)",
  "POST /api/reviews/:id/reports": "any customer may report any review on show: that is what reports are",
  "GET /api/admin/discount-codes/:id": "admins only: customers get 403 (authorization matrix)",
  "POST /api/admin/discount-codes/:id/end": "admins only: customers get 403 (authorization matrix)",
};

describe("ownership swaps", () => {
  const idRoutes = () => [...world.registered].filter((key) => key.includes(" /api/") && key.includes("/:"));

  it("covers every route that takes an id in its path", () => {
    const unclassified = idRoutes().filter((key) => {
      const entry = ROUTES[key];
      const ownerBound = entry && !("skip" in entry) && entry.expect.customerB === 404;
      return !ownerBound && !(key in NOT_OWNED);
    });
    expect(unclassified, "say in NOT_OWNED why B may act on it, or make it owner-bound").toEqual([]);
    expect(idRoutes().length).toBeGreaterThanOrEqual(9);
  });

  it("answers customer B on customer A's resource with 404 on every id-taking route, changing nothing", async () => {
    const swapped: string[] = [];
    for (const key of idRoutes()) {
      const entry = ROUTES[key];
      if (!entry || "skip" in entry || entry.expect.customerB !== 404) continue;
      const request = await entry.prepare(world, "customerB");
      const before = await world.snapshot();
      const res = await send(key.split(" ")[0] as Method, request, world.people.customerB.cookie);
      expect(res.statusCode, `${key}: ${res.body.slice(0, 200)}`).toBe(404);
      expect(await world.snapshot(), `${key} changed data for B`).toEqual(before);
      swapped.push(key);
    }
    expect(swapped.length).toBeGreaterThanOrEqual(4);
  });

  it("refuses to pay B's order with A's confirmed payment, leaving both orders as they were", async () => {
    const a = await confirmedPaymentOfA(world);
    const ownOrder = await world.ctx.app.inject({
      method: "POST",
      url: "/api/orders",
      headers: { origin: ORIGIN, cookie: world.people.customerB.cookie },
      payload: { productId: world.stockedProductId, quantity: 10, address: "2 B Street", phone: "5550124" },
    });
    expect(ownOrder.statusCode).toBe(201);
    const before = await world.snapshot();
    const res = await send(
      "POST",
      { url: `/api/orders/${ownOrder.json().id}/pay`, payload: { transactionId: a.transactionId } },
      world.people.customerB.cookie,
    );
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
    expect(await world.snapshot()).toEqual(before);
    const statuses = await world.ctx.database.db
      .select({ status: orders.status })
      .from(orders)
      .where(inArray(orders.id, [a.orderId, ownOrder.json().id]));
    expect(statuses.map((s) => s.status)).toEqual(["pending", "pending"]);
  });

  it("refuses B's card payment on A's payment intent", async () => {
    const { clientSecret } = await intentOfA(world);
    const before = await world.snapshot();
    const res = await send(
      "POST",
      { url: "/api/payments/sandbox/confirm", payload: sandboxCard(clientSecret) },
      world.people.customerB.cookie,
    );
    expect(res.statusCode).toBe(404);
    expect(await world.snapshot()).toEqual(before);
  });

  it("keeps A's session when B asks to revoke it by its token", async () => {
    const a = await signUp(world.ctx.app, { name: "Revoke Target" });
    const b = await signUp(world.ctx.app, { name: "Revoke Thief" });
    const res = await send(
      "POST",
      { url: "/api/auth/revoke-session", payload: { token: sessionTokenOf(a.cookie) } },
      b.cookie,
    );
    expect(res.statusCode).toBeLessThan(500);
    const me = await world.ctx.app.inject({ url: "/api/me", headers: { cookie: a.cookie } });
    expect(me.statusCode).toBe(200);
  });

  it("gives customer B and the admin their own data to download, none of customer A's", async () => {
    // A has orders, a profile and reviews by now (the routes above acted for A).
    const a = world.people.customerA;
    await confirmedPaymentOfA(world);
    const aOrders = await world.ctx.database.db
      .select({ id: orders.id })
      .from(orders)
      .where(inArray(orders.userId, [a.id]));
    expect(aOrders.length).toBeGreaterThan(0);
    for (const who of ["customerB", "admin"] as const) {
      const res = await send("GET", { url: "/api/me/data" }, world.people[who].cookie);
      expect(res.statusCode, who).toBe(200);
      const files = readZip(res.rawPayload);
      const text = [...files.values()].map((f) => f.toString("utf8")).join("\n");
      expect(text, who).toContain(world.people[who].email);
      for (const needle of [a.email, a.id, ...aOrders.map((o) => o.id)])
        expect(text, who).not.toContain(needle);
    }
  });
});

describe("better-auth endpoints the shop does not offer", () => {
  it("serves exactly the endpoints that have a case in AUTH_ROUTES", () => {
    expect(Object.keys(AUTH_ROUTES).sort()).toEqual([...AUTH_POST_PATHS].sort());
    const unknown = AUTH_POST_PATHS.filter((path) => !authPostPaths(world).includes(path));
    expect(unknown, "served paths better-auth does not have").toEqual([]);
  });

  it("answers 404 to every other POST endpoint of better-auth, changing nothing", async () => {
    const closed = authPostPaths(world).filter((path) => !AUTH_POST_PATHS.includes(path));
    expect(closed).toEqual(expect.arrayContaining(["/delete-user", "/change-email", "/get-access-token"]));
    for (const path of closed) {
      const self = await signUp(world.ctx.app, { name: "Closed Door" });
      const before = await world.snapshot();
      const url = `/api/auth${path.replace(/:[a-zA-Z]+/g, "google")}`;
      const res = await send("POST", { url, payload: { userId: bystander.id } }, self.cookie);
      expect(res.statusCode, `${path}: ${res.body.slice(0, 200)}`).toBe(404);
      expect(await world.snapshot()).toEqual(before);
    }
  });
});

/** Values a body has no business setting; each is looked for in the database afterwards. */
const mass = () => ({
  role: "admin",
  paid: true,
  status: "shipped",
  totalPrice: 1,
  unitPrice: 1,
  amount: 1,
  userId: bystander.id,
  email: "mass.assigned@evil.example",
  name: "Mass Assigned",
  id: "00000000-0000-4000-8000-0000000000ad",
  createdAt: "1999-09-09T09:09:09.000Z",
  verified: true,
  emailVerified: true,
  image: "javascript:alert('mass')",
});
/** Texts that, found anywhere in the database, mean a mass-assigned value was stored. */
const MARKERS = ["mass.assigned@evil.example", "Mass Assigned", "0000000000ad", "1999-09-09", "javascript:"];
/** Fields a route's own body rightly names, beyond those its prepared body already has. */
const CLIENT_OWNED: Record<string, string[]> = { "PATCH /api/products/:id": ["name", "image"] };

/** The prepared body with every mass-assignment field it does not rightly own added. */
function withMassFields(key: string, payload: Prepared["payload"]): Prepared["payload"] {
  if (payload === undefined || Buffer.isBuffer(payload)) return payload;
  const extra = Object.fromEntries(
    Object.entries(mass()).filter(([field]) => !(field in payload) && !CLIENT_OWNED[key]?.includes(field)),
  );
  return { ...extra, ...payload };
}

async function tablesHolding(text: string): Promise<string[]> {
  const tables = await world.ctx.database.pool.query<{ name: string }>(
    "select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'",
  );
  const found: string[] = [];
  for (const { name } of tables.rows) {
    const hit = await world.ctx.database.pool.query(
      `select 1 from "${name}" t where t::text like $1 limit 1`,
      [`%${text}%`],
    );
    if (hit.rowCount) found.push(name);
  }
  return found;
}

describe("mass assignment", () => {
  it("changes no answer on any mutating route: 0 unauthorized 2xx, every refusal changes nothing", async () => {
    let requests = 0;
    for (const [key, entry] of Object.entries(ROUTES)) {
      const method = key.split(" ")[0] as Method;
      if ("skip" in entry || method === "GET") continue;
      for (const actor of ACTORS) {
        const request = await entry.prepare(world, actor);
        const before = await world.snapshot();
        const res = await send(
          method,
          { ...request, payload: withMassFields(key, request.payload) },
          world.cookieOf(actor),
        );
        requests += 1;
        expect(res.statusCode, `${key} as ${actor}: ${res.body.slice(0, 200)}`).toBe(entry.expect[actor]);
        if (res.statusCode >= 400) expect(await world.snapshot()).toEqual(before);
        if (key === "POST /api/orders/:id/payment-intent" && res.statusCode === 200)
          expect(res.json().amount).toBe(120 * 100);
      }
    }
    for (const [path, entry] of Object.entries(AUTH_ROUTES)) {
      // Unverified, as sign-up leaves it: no body may verify it (checked below), though a followed
      // reset link does, as it proves the address.
      const name = path === "/reset-password" ? "Reset Sender" : "Mass Sender";
      const self = await signUp(world.ctx.app, { name }, { verified: false });
      const request = await entry.prepare(world, self);
      const res = await send(
        "POST",
        { ...request, payload: withMassFields(path, request.payload) },
        entry.session ? self.cookie : undefined,
      );
      requests += 1;
      expect(res.statusCode, `${path}: ${res.body.slice(0, 200)}`).toBe(entry.ok);
    }
    expect(requests).toBeGreaterThan(60);
  });

  it("stored none of the values: no marker in any table, no row of the bystander's", async () => {
    for (const marker of MARKERS) expect(await tablesHolding(marker), marker).toEqual([]);
    const ofBystander = (await tablesHolding(bystander.id)).filter(
      (table) => !["user", "account", "session"].includes(table),
    );
    expect(ofBystander).toEqual([]);
  });

  it("kept every customer a customer, and every email the bodies named unverified", async () => {
    const rows = await world.ctx.database.db
      .select({ email: users.email, name: users.name, role: users.role, emailVerified: users.emailVerified })
      .from(users);
    const admins = rows.filter((r) => r.role === "admin").map((r) => r.email);
    // The matrix admin, plus the fresh users PUT /api/users/:id/role made admin on purpose.
    const promoted = rows.filter((r) => r.role === "admin" && r.email.startsWith("user."));
    expect(admins.length).toBe(1 + promoted.length);
    for (const person of [world.people.customerA, world.people.customerB])
      expect(rows.find((r) => r.email === person.email)?.role).toBe("user");
    // The test helpers verify the accounts they book with in the database; the accounts the auth
    // bodies above were sent for (signed up, renamed) stay as sign-up left them.
    const sentFor = rows.filter((r) => ["Mass Sender", "New Customer", "Renamed Customer"].includes(r.name));
    expect(sentFor.length).toBeGreaterThan(5);
    expect(sentFor.filter((r) => r.emailVerified)).toEqual([]);
  });

  it("priced and stated every order from the server", async () => {
    const rows = await world.ctx.database.db
      .select({
        status: orders.status,
        unitPrice: orders.unitPrice,
        quantity: orders.quantity,
        totalPrice: orders.totalPrice,
        transactionId: orders.transactionId,
        name: orders.name,
      })
      .from(orders);
    expect(rows.length).toBeGreaterThan(10);
    for (const row of rows) {
      expect(row.unitPrice).toBe(12);
      expect(row.totalPrice).toBe(row.unitPrice * row.quantity);
      // Only an unpaid order (pending, or expired unpaid) has no transaction id.
      if (row.status !== "pending" && row.status !== "expired") expect(row.transactionId).toBeTruthy();
    }
    const shippedUnpaid = rows.filter((r) => r.status === "shipped" && !r.transactionId);
    expect(shippedUnpaid).toEqual([]);
  });

  it("never marked a review verified for a customer without a paid order, nor named it otherwise", async () => {
    const listed = await world.ctx.app.inject({ url: "/api/reviews" });
    const ofB = (listed.json() as { items: { name: string; verified: boolean }[] }).items.filter(
      (r) => r.name === "Customer B",
    );
    expect(ofB.length).toBeGreaterThan(0);
    expect(ofB.every((r) => !r.verified)).toBe(true);
  });
});
