import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { products } from "../db/schema/index.js";
import { setStockDirectly } from "./products.js";
import { ACTORS, isSkippedPath, type Method, type Person, ROUTES, setUpRouteWorld } from "./route-cases.js";
import { ORIGIN } from "./users.js";

/**
 * Every /api route × {visitor, customer A, customer B, admin}: the status each gets, and that a
 * refused request changed nothing in the database. The routes and their fixtures live in
 * route-cases.ts, shared with the security suite.
 *
 * The routes come from the app itself: buildApp's `onRoute` option hears of every route as it is
 * registered, so a new route without a row in ROUTES fails the first test. (Reading
 * `printRoutes()` would mean parsing a drawing of the router tree, and the OpenAPI document leaves
 * out hidden routes.)
 */

const world = setUpRouteWorld();

describe("authorization matrix", () => {
  it("has a row for every registered /api route", () => {
    const apiRoutes = [...world.registered].filter((key) => (key.split(" ")[1] ?? "").startsWith("/api"));
    expect(apiRoutes.length).toBeGreaterThan(20);
    const missing = apiRoutes.filter((key) => !(key in ROUTES) && !isSkippedPath(key));
    expect(missing, "add these routes to ROUTES in route-cases.ts").toEqual([]);
  });

  it("lists only registered routes, apart from those not registered yet", () => {
    const stale = Object.keys(ROUTES).filter((key) => !world.registered.has(key));
    expect(stale).toEqual([]);
  });

  for (const [key, entry] of Object.entries(ROUTES)) {
    if ("skip" in entry) continue;
    it(`${key}: ${ACTORS.map((a) => `${a} ${entry.expect[a]}`).join(", ")}`, async () => {
      const method = key.split(" ")[0] as Method;
      for (const actor of ACTORS) {
        const request = await entry.prepare(world, actor);
        const cookie = world.cookieOf(actor);
        const before = await world.snapshot();
        const res = await world.ctx.app.inject({
          method,
          url: request.url,
          headers: { origin: ORIGIN, ...(cookie ? { cookie } : {}), ...request.headers },
          ...(request.payload ? { payload: request.payload } : {}),
        });
        expect(res.statusCode, `${actor}: ${res.body.slice(0, 300)}`).toBe(entry.expect[actor]);
        if (res.statusCode >= 400)
          expect(await world.snapshot(), `${actor} was refused but changed data`).toEqual(before);
      }
    });
  }
});

describe("the matrix's own fixtures", () => {
  it("signs in customers A and B as customers and the admin as an admin", async () => {
    const role = async (actor: Person) =>
      (await world.ctx.app.inject({ url: "/api/me", headers: { cookie: world.people[actor].cookie } })).json()
        .role;
    expect(await role("customerA")).toBe("user");
    expect(await role("customerB")).toBe("user");
    expect(await role("admin")).toBe("admin");
  });

  it("notices a change to any row", async () => {
    const before = await world.snapshot();
    await setStockDirectly(
      world.ctx.database.db,
      eq(products.id, world.stockedProductId),
      sql`${products.quantity} + 1`,
    );
    expect(await world.snapshot()).not.toEqual(before);
  });
});
