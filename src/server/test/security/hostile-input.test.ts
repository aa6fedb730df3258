import fc from "fast-check";
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { productListQuerySchema } from "../../../shared/catalog.js";
import { reviewListQuerySchema } from "../../../shared/reviews.js";
import { userListQuerySchema } from "../../../shared/users.js";
import {
  type Actor,
  type Entry,
  isSkippedPath,
  type Method,
  ROUTES,
  type RouteCase,
  setUpRouteWorld,
} from "../route-cases.js";
import {
  expectEchoedLiterally,
  expectNoLeak,
  type HostileBody,
  hostileBodies,
  hostileId,
  hostileQuery,
  hostileRunCounts,
  hostileUploads,
  NOT_FINGERPRINTED,
  RUNS,
  refusedChangingNothing,
  SEED,
  sendHostile,
  sentObject,
} from "./hostile.js";

/**
 * ASVS V5 on the shop's own routes: every mutating route (listed from the registered routes, so a
 * new one cannot be missed) gets RUNS generated hostile requests from its own actor. None may
 * answer 5xx or show internals; a refused one may change no row; an accepted one shows its text
 * back exactly as sent. better-auth's endpoints have their own file (hostile-auth-input.test.ts).
 */

const world = setUpRouteWorld();
let png: Uint8Array;
const { tally, perTarget: perRoute } = hostileRunCounts("hostile input (app routes)", "routes");

beforeAll(async () => {
  png = new Uint8Array(
    await sharp({ create: { width: 8, height: 8, channels: 3, background: "#123456" } })
      .png()
      .toBuffer(),
  );
});

const isCase = (entry: Entry | undefined): entry is RouteCase => !!entry && !("skip" in entry);
const mutating = Object.entries(ROUTES).filter(([key, entry]) => isCase(entry) && !key.startsWith("GET "));
const reading = Object.entries(ROUTES).filter(([key, entry]) => isCase(entry) && key.startsWith("GET "));

/** The actor a route answers with success: its owner, else the admin, else anyone. */
function actorFor(entry: RouteCase): Actor {
  const order: Actor[] = ["customerA", "admin", "visitor"];
  return order.find((a) => entry.expect[a] < 300) ?? "customerA";
}

const ID_IN_URL = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[a-f0-9]{64}\.webp/;
const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  !!v && typeof v === "object" && !Array.isArray(v) && !Buffer.isBuffer(v);

describe("hostile input on the shop's routes", () => {
  it("fuzzes every mutating /api route the app registers", () => {
    const registered = [...world.registered].filter(
      (key) =>
        !key.startsWith("GET ") &&
        key.includes(" /api/") &&
        !key.includes("/api/auth/") &&
        !isSkippedPath(key),
    );
    expect(registered.length).toBeGreaterThanOrEqual(15);
    expect(mutating.map(([key]) => key).sort()).toEqual(registered.sort());
  });

  for (const [key, entry] of mutating) {
    it(
      `${key}: ${RUNS} hostile requests, no 5xx or internals, refusals change nothing, text kept literally`,
      async () => {
        if (!isCase(entry)) return;
        const method = key.split(" ")[0] as Method;
        const actor = actorFor(entry);
        const base = await entry.prepare(world, actor);
        const cookie = world.cookieOf(actor);
        const baseBody = isPlainObject(base.payload) ? base.payload : {};
        const echoFields = Object.keys(baseBody);
        const { "content-type": _, ...headers } = base.headers ?? {};
        const bodies: fc.Arbitrary<HostileBody> =
          key === "POST /api/uploads" ? hostileUploads(png) : hostileBodies(baseBody);
        const ids = key.includes("/:") ? fc.option(hostileId, { freq: 3 }) : fc.constant(null);
        let current = await world.snapshot(NOT_FINGERPRINTED);

        await fc.assert(
          fc.asyncProperty(ids, bodies, async (id, body) => {
            const url = id === null ? base.url : base.url.replace(ID_IN_URL, id);
            const label = `${key} (${body.note}${id === null ? "" : `, id ${id.slice(0, 40)}`})`;
            const res = await sendHostile(
              world,
              { method, url, headers: { ...headers, ...(cookie ? { cookie } : {}) } },
              body,
            );
            perRoute[key] = (perRoute[key] ?? 0) + 1;
            if (!(await refusedChangingNothing(world, res, label, tally, current))) {
              expectEchoedLiterally(echoFields, sentObject(body), res, label);
              current = await world.snapshot(NOT_FINGERPRINTED);
            }
          }),
          { seed: SEED, numRuns: RUNS },
        );
        expect(perRoute[key]).toBeGreaterThanOrEqual(RUNS);
        // Uploads it accepts are re-encoded by the image worker, which runs only when no other work
        // wants the CPU (SCHED_IDLE): beside two CPU hogs its 45 images took 158 s of the default
        // 180 s. A safety net for a hang, not a budget.
      },
      key === "POST /api/uploads" ? 600_000 : undefined,
    );
  }
});

/** Query parameter names of the reading routes that take a query, from their shared schemas. */
const QUERY_NAMES: Record<string, string[]> = {
  "GET /api/products": Object.keys(productListQuerySchema.shape),
  "GET /api/reviews": Object.keys(reviewListQuerySchema.shape),
  "GET /api/users": Object.keys(userListQuerySchema.shape),
};

describe("hostile query strings and path ids on the reading routes", () => {
  for (const [key, entry] of reading) {
    const hasId = key.includes("/:");
    const names = QUERY_NAMES[key];
    if (!hasId && !names) continue;
    it(`${key}: ${RUNS} hostile ${hasId ? "ids" : "queries"}, no 5xx or internals, nothing changed`, async () => {
      if (!isCase(entry)) return;
      const actor = actorFor(entry);
      const base = await entry.prepare(world, actor);
      const cookie = world.cookieOf(actor);
      const before = await world.snapshot(NOT_FINGERPRINTED);
      const urls = hasId
        ? hostileId.map((id) => base.url.replace(ID_IN_URL, id))
        : hostileQuery(names ?? []).map((query) => `${base.url}?${query}`);
      await fc.assert(
        fc.asyncProperty(urls, async (url) => {
          const res = await sendHostile(
            world,
            { method: "GET", url, headers: cookie ? { cookie } : {} },
            undefined,
          );
          expectNoLeak(res, `${key} ${url.slice(0, 120)}`, tally);
          perRoute[key] = (perRoute[key] ?? 0) + 1;
        }),
        { seed: SEED, numRuns: RUNS },
      );
      expect(await world.snapshot(NOT_FINGERPRINTED)).toEqual(before);
    });
  }
});

/** Markup, SQL and template text that is valid input: it must come back exactly as written. */
const LITERAL_TEXTS = [
  "<script>alert('x')</script>",
  "<img src=x onerror=alert(1)> & &amp; &lt;",
  '\'; DROP TABLE "order"; -- \\',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a template-injection probe, sent as plain text
  "{{7*7}} ${7*7} %s %n",
  "Ω≈ç√∫ 𝔘𝔫𝔦𝔠𝔬𝔡𝔢 🛒 \u202Eevil",
];

describe("text the shop accepts is stored and shown back literally", () => {
  it("keeps markup and SQL in reviews, profiles, orders, products and names exactly as written", async () => {
    const a = world.people.customerA.cookie;
    const admin = world.people.admin.cookie;
    const send = (method: Method, url: string, cookie: string, payload?: object) =>
      sendHostile(
        world,
        { method, url, headers: { cookie } },
        payload ? { kind: "json", text: JSON.stringify(payload), note: "" } : undefined,
      );
    for (const text of LITERAL_TEXTS) {
      const comment = `${text} review`;
      expect((await send("POST", "/api/reviews", a, { comment, rating: 4 })).statusCode).toBe(201);
      const listed = (await send("GET", "/api/reviews", a)).json() as { items: { comment: string }[] };
      expect(listed.items.map((r) => r.comment)).toContain(comment);

      await send("POST", "/api/profile", a, { address: text, city: text, phone: "5550123" });
      expect(
        (await send("PUT", "/api/profile", a, { address: text, city: text, phone: "5550123" })).statusCode,
      ).toBe(200);
      expect((await send("GET", "/api/profile", a)).json()).toMatchObject({ address: text, city: text });

      const order = await send("POST", "/api/orders", a, {
        productId: world.stockedProductId,
        quantity: 10,
        address: text,
        phone: "5550123",
      });
      expect(order.statusCode).toBe(201);
      expect((await send("GET", `/api/orders/${order.json().id}`, a)).json().address).toBe(text);

      const product = await send("POST", "/api/products", admin, {
        name: text.slice(0, 120),
        description: text,
        image: "/media/products/pulse-60-compact-keyboard.svg",
        price: 5,
        quantity: 50,
        category: "mice",
      });
      expect(product.statusCode).toBe(201);
      expect((await send("GET", `/api/products/${product.json().id}`, a)).json()).toMatchObject({
        name: text.slice(0, 120),
        description: text,
      });

      const named = text.slice(0, 80);
      expect((await send("POST", "/api/auth/update-user", a, { name: named })).statusCode).toBe(200);
      expect((await send("GET", "/api/me", a)).json().name).toBe(named);
    }
  });
});
