import { describe, expect, it } from "vitest";
import { reminderUnsubscribeToken } from "../../features/mail-preferences/token.js";
import {
  type Actor,
  AUTH_ROUTES,
  authPostPaths,
  type Method,
  type Prepared,
  ROUTES,
  setUpRouteWorld,
} from "../route-cases.js";
import { signUp } from "../users.js";
import { multipartBytes } from "./hostile.js";

/**
 * ASVS V3.5 / V50 (CSRF): every state-changing route, better-auth's included, refuses a request
 * that carries a valid session cookie but comes from another site: a foreign Origin (or the opaque
 * `null` one), or a simple cross-site form post (urlencoded, text/plain, multipart) that a browser
 * sends without asking first. Each is refused and changes nothing.
 */

const EVIL = "https://evil.example";
const world = setUpRouteWorld();

interface Attack {
  name: string;
  /** Headers and body of the forged request, from the route's valid one. */
  forge(request: Prepared): { headers: Record<string, string>; payload?: string | Buffer };
  /** What it must get; Origin alone refuses it with 403 before anything else runs. */
  status: number;
}

const flatFields = (payload: Prepared["payload"]): [string, string][] =>
  payload && !Buffer.isBuffer(payload)
    ? Object.entries(payload).map(([k, v]) => [k, typeof v === "string" ? v : JSON.stringify(v)])
    : [];
const jsonOf = (request: Prepared) =>
  request.payload === undefined
    ? {}
    : Buffer.isBuffer(request.payload)
      ? { payload: request.payload }
      : { payload: JSON.stringify(request.payload), headers: { "content-type": "application/json" } };

const BOUNDARY = "----csrf";
const ATTACKS: Attack[] = [
  {
    name: "JSON from a foreign Origin",
    forge: (r) => ({
      headers: { ...r.headers, ...jsonOf(r).headers, origin: EVIL },
      payload: jsonOf(r).payload,
    }),
    status: 403,
  },
  {
    name: "JSON from the opaque Origin null (sandboxed frame, file:)",
    forge: (r) => ({
      headers: { ...r.headers, ...jsonOf(r).headers, origin: "null" },
      payload: jsonOf(r).payload,
    }),
    status: 403,
  },
  {
    name: "JSON from a sibling origin on another port",
    forge: (r) => ({
      headers: { ...r.headers, ...jsonOf(r).headers, origin: "http://localhost:3001" },
      payload: jsonOf(r).payload,
    }),
    status: 403,
  },
  {
    name: "urlencoded form post, foreign Origin",
    forge: (r) => ({
      headers: { "content-type": "application/x-www-form-urlencoded", origin: EVIL },
      payload: new URLSearchParams(flatFields(r.payload)).toString(),
    }),
    status: 403,
  },
  {
    name: "urlencoded form post, no Origin, Sec-Fetch-Site cross-site",
    forge: (r) => ({
      headers: { "content-type": "application/x-www-form-urlencoded", "sec-fetch-site": "cross-site" },
      payload: new URLSearchParams(flatFields(r.payload)).toString(),
    }),
    status: 403,
  },
  {
    name: "text/plain form post carrying JSON, foreign Origin",
    forge: (r) => ({
      headers: { "content-type": "text/plain", origin: EVIL },
      payload: JSON.stringify(r.payload ?? {}),
    }),
    status: 403,
  },
  {
    name: "text/plain form post carrying JSON, no Origin, Sec-Fetch-Site cross-site",
    forge: (r) => ({
      headers: { "content-type": "text/plain", "sec-fetch-site": "cross-site" },
      payload: JSON.stringify(r.payload ?? {}),
    }),
    status: 403,
  },
  {
    name: "multipart form post, no Origin, Sec-Fetch-Site cross-site",
    forge: (r) => ({
      headers: {
        "content-type": r.headers?.["content-type"] ?? `multipart/form-data; boundary=${BOUNDARY}`,
        "sec-fetch-site": "cross-site",
      },
      payload: Buffer.isBuffer(r.payload)
        ? r.payload
        : Buffer.from(
            multipartBytes(
              flatFields(r.payload).map(([name, value]) => ({ name, data: new TextEncoder().encode(value) })),
              BOUNDARY,
            ),
          ),
    }),
    status: 403,
  },
  {
    name: "multipart form post, foreign Origin, Sec-Fetch-Site same-site",
    forge: (r) => ({
      headers: {
        "content-type": r.headers?.["content-type"] ?? `multipart/form-data; boundary=${BOUNDARY}`,
        origin: EVIL,
        "sec-fetch-site": "same-site",
      },
      payload: Buffer.isBuffer(r.payload) ? r.payload : Buffer.from(multipartBytes([], BOUNDARY)),
    }),
    status: 403,
  },
];

/** Who succeeds on the route, so the forged request carries a session that would be enough. */
const ACTOR_ORDER: Actor[] = ["customerA", "admin", "visitor"];

/**
 * Never cookie-authenticated, each carrying its own secret, so exempt from Origin: the payment
 * provider's webhook (its signature) and the mails' one-click unsubscribe (RFC 8058: a mail provider
 * POSTs it from anywhere; its token, signed by the shop, names the account). Checked below.
 */
const ORIGIN_EXEMPT = new Set(["POST /api/payments/webhook", "POST /api/mail/unsubscribe"]);

async function expectRefused(
  label: string,
  method: Method,
  url: string,
  cookie: string | undefined,
  forged: ReturnType<Attack["forge"]>,
  status: number,
) {
  const before = await world.snapshot();
  const res = await world.ctx.app.inject({
    method,
    url,
    headers: { ...forged.headers, ...(cookie ? { cookie } : {}) },
    ...(forged.payload !== undefined ? { payload: forged.payload } : {}),
  });
  expect(res.statusCode, `${label}: ${res.body.slice(0, 200)}`).toBe(status);
  expect(res.headers["content-type"], label).toMatch(/^application\/problem\+json/);
  expect(await world.snapshot(), `${label} changed data`).toEqual(before);
}

describe("cross-site requests on the shop's routes", () => {
  const mutating = Object.entries(ROUTES).filter(
    ([key, entry]) => !("skip" in entry) && !key.startsWith("GET ") && !ORIGIN_EXEMPT.has(key),
  );

  it("covers every mutating route but the signed webhook", () => {
    const registered = [...world.registered].filter(
      (key) => !key.startsWith("GET ") && key.includes(" /api/") && !key.includes("/api/auth/"),
    );
    expect(mutating.map(([key]) => key).sort()).toEqual(
      registered.filter((k) => !ORIGIN_EXEMPT.has(k)).sort(),
    );
  });

  for (const [key, entry] of mutating) {
    if ("skip" in entry) continue;
    it(`${key}: refuses ${ATTACKS.length} forged cross-site requests, changing nothing`, async () => {
      const method = key.split(" ")[0] as Method;
      const actor = ACTOR_ORDER.find((a) => entry.expect[a] < 300) ?? "customerA";
      // One target serves every attack: each is refused, so none uses it up.
      const request = await entry.prepare(world, actor);
      for (const attack of ATTACKS) {
        await expectRefused(
          `${key}, ${attack.name}`,
          method,
          request.url,
          world.cookieOf(actor),
          attack.forge(request),
          attack.status,
        );
      }
    });
  }

  it("refuses a foreign Origin however the path is spelled (percent-encoded, doubled slashes)", async () => {
    const a = world.people.customerA.cookie;
    const body = { comment: "Forged review", rating: 5 };
    for (const url of ["/%61pi/reviews", "/api/%72eviews", "/api/reviews?x=/api/payments/webhook"]) {
      const res = await world.ctx.app.inject({
        method: "POST",
        url,
        headers: { origin: EVIL, cookie: a },
        payload: body,
      });
      expect([403, 404], `${url}: ${res.body.slice(0, 200)}`).toContain(res.statusCode);
    }
    const listed = (await world.ctx.app.inject({ url: "/api/reviews" })).json() as {
      items: { comment: string }[];
    };
    expect(listed.items.map((r) => r.comment)).not.toContain("Forged review");
  });
});

describe("the one-click unsubscribe, exempt from the Origin check", () => {
  it("a cross-site post with the victim's cookie but without the account's signed token changes nothing", async () => {
    const victim = world.people.customerA;
    for (const attack of ATTACKS) {
      for (const url of [
        "/api/mail/unsubscribe",
        "/api/mail/unsubscribe?token=",
        `/api/mail/unsubscribe?token=${Buffer.from(victim.id).toString("base64url")}.forged`,
        // Signed, but not with the shop's secret.
        `/api/mail/unsubscribe?token=${reminderUnsubscribeToken("not-the-shops-secret-0123456789abcdef", victim.id)}`,
      ]) {
        const forgedRequest = attack.forge({ url, payload: { userId: victim.id } });
        const before = await world.snapshot();
        const res = await world.ctx.app.inject({
          method: "POST",
          url,
          headers: { ...forgedRequest.headers, cookie: victim.cookie },
          ...(forgedRequest.payload !== undefined ? { payload: forgedRequest.payload } : {}),
        });
        expect([400, 415], `${attack.name}, ${url}: ${res.body.slice(0, 200)}`).toContain(res.statusCode);
        expect(await world.snapshot(), `${attack.name}, ${url} changed data`).toEqual(before);
      }
    }
  });
});

describe("cross-site requests on better-auth's endpoints", () => {
  it("refuses every forged request on every POST endpoint better-auth has, served or closed", async () => {
    const paths = authPostPaths(world);
    expect(paths).toEqual(expect.arrayContaining(["/sign-out", "/update-user", "/change-password"]));
    let checked = 0;
    for (const path of paths) {
      const entry = AUTH_ROUTES[path];
      const self = await signUp(world.ctx.app, { name: "Forged Victim" });
      const request: Prepared = entry
        ? await entry.prepare(world, self)
        : { url: `/api/auth${path.replace(/:[a-zA-Z]+/g, "google")}`, payload: { userId: self.id } };
      for (const attack of ATTACKS) {
        await expectRefused(
          `${path}, ${attack.name}`,
          "POST",
          request.url,
          self.cookie,
          attack.forge(request),
          403,
        );
        // The victim's session is still there: no forged sign-out or revocation went through.
        const me = await world.ctx.app.inject({ url: "/api/me", headers: { cookie: self.cookie } });
        expect(me.json(), `${path}, ${attack.name}`).toMatchObject({ name: "Forged Victim" });
        checked += 1;
      }
    }
    expect(checked).toBe(paths.length * ATTACKS.length);
  });
});
