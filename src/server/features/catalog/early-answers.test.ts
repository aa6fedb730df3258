import http from "node:http";
import type { RouteOptions } from "fastify";
import { beforeAll, describe, expect, it } from "vitest";
import { setUpTestApp } from "../../test/app.js";
import { ORIGIN } from "../../test/users.js";

/**
 * The running server answers a catalog URL it has routed and validated before straight from the
 * cache, on node:http before Fastify (plugins/early-answers.ts, answeredByUrl in routes.ts). These
 * requests go over a real socket: light-my-request (inject) never reaches the server's handler.
 */

/** Requests of GET /api/products that Fastify routed (its onRequest hooks ran). */
let routedByFastify = 0;
const METRICS_TOKEN = "early-answers-metrics-token-0123";
const ctx = setUpTestApp(
  { METRICS_TOKEN },
  {
    onRoute: (route) => {
      if (route.url !== "/api/products" || route.method !== "GET") return;
      const options = route as RouteOptions;
      const own = options.onRequest === undefined ? [] : [options.onRequest].flat();
      options.onRequest = [
        async () => {
          routedByFastify++;
        },
        ...own,
      ] as RouteOptions["onRequest"];
    },
  },
);
const admin = ctx.signedUpAdmin();
let base: string;

beforeAll(async () => {
  base = await ctx.app.listen({ port: 0, host: "127.0.0.1" });
});

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** node:http rather than fetch: every header as sent, and no decompression. */
function get(path: string, headers: Record<string, string> = {}, method = "GET"): Promise<Answer> {
  return new Promise((resolve, reject) => {
    http
      .request(`${base}${path}`, { method, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
      })
      .on("error", reject)
      .end();
  });
}

/** An answer's headers but those that differ per answer anyway: its date, and its request's id. */
const withoutDate = ({ date: _date, "x-request-id": id, ...headers }: http.IncomingHttpHeaders) => {
  expect(id).toMatch(/^[0-9a-f]{32}$/);
  return headers;
};

/** gearhouse_early_answers_total of /api/products for `status`. */
async function earlyAnswersCounted(status: number): Promise<number> {
  const res = await ctx.app.inject({
    url: "/metrics",
    headers: { authorization: `Bearer ${METRICS_TOKEN}` },
  });
  const series = `gearhouse_early_answers_total{route="/api/products",status="${status}"} `;
  const line = res.body.split("\n").find((l) => l.startsWith(series));
  return line ? Number(line.slice(series.length)) : 0;
}

describe("early answers of the catalog", () => {
  for (const path of ["/api/products?category=mice&sort=price-asc", "/api/products"])
    it(`answers ${path} the second time with the same status, headers and bytes`, async () => {
      const before = routedByFastify;
      const routed = await get(path);
      expect(routed.status).toBe(200);
      expect(routedByFastify).toBe(before + 1);
      const early = await get(path);
      expect(early.status).toBe(200);
      expect(routedByFastify).toBe(before + 1);
      expect(withoutDate(early.headers)).toEqual(withoutDate(routed.headers));
      expect(early.body.equals(routed.body)).toBe(true);
      expect(early.headers["content-security-policy"]).toContain("default-src 'self'");
      expect(early.headers["cache-control"]).toBe("no-cache");
    });

  it("answers 304 for the ETag the client holds, and the compressed copy to a client that takes it", async () => {
    const path = "/api/products?category=keyboards";
    const first = await get(path);
    const [ok, notModified] = [await earlyAnswersCounted(200), await earlyAnswersCounted(304)];
    // Header names in any case, as browsers send them.
    const again = await get(path, { "If-None-Match": String(first.headers.etag) });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    expect(again.headers.etag).toBe(first.headers.etag);
    expect(again.headers["x-content-type-options"]).toBe("nosniff");
    expect(await earlyAnswersCounted(304)).toBe(notModified + 1);

    const routedBr = await get(`${path}&page=1`, { "Accept-Encoding": "br" });
    const earlyBr = await get(`${path}&page=1`, { "Accept-Encoding": "br" });
    expect(await earlyAnswersCounted(200)).toBe(ok + 1);
    expect(earlyBr.headers["content-encoding"]).toBe("br");
    expect(withoutDate(earlyBr.headers)).toEqual(withoutDate(routedBr.headers));
    expect(earlyBr.body.equals(routedBr.body)).toBe(true);
  });

  it("never answers from a cache entry a change has dropped", async () => {
    const path = "/api/products?sort=newest";
    const before = JSON.parse((await get(path)).body.toString());
    await get(path);
    const [first] = before.items;
    const res = await ctx.app.inject({
      method: "PATCH",
      url: `/api/products/${first.id}`,
      headers: { cookie: admin.cookie, origin: ORIGIN },
      payload: { price: first.price + 1 },
    });
    expect(res.statusCode).toBe(200);
    await expect
      .poll(async () => JSON.parse((await get(path)).body.toString()).items[0].price)
      .toBe(first.price + 1);
  });

  it("leaves a HEAD request and a URL it has not seen to Fastify", async () => {
    const head = await get("/api/products", {}, "HEAD");
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    const invalid = await get("/api/products?page=0");
    expect(invalid.status).toBe(400);
    expect(invalid.headers["content-type"]).toContain("application/problem+json");
    // Refused, so never remembered: the second time is refused by the route again.
    expect((await get("/api/products?page=0")).status).toBe(400);
  });
});
