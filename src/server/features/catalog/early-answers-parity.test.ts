import http from "node:http";
import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { earlyAnswerCount } from "../../lib/metrics.js";
import { createTestApp, type TestContext } from "../../test/app.js";
import { until } from "../../test/until.js";

/**
 * The catalog's early path (plugins/early-answers.ts) and Fastify's path send the same headers and
 * write the same access line (issue 29, item 1): one shop answers a cached URL early, a second one,
 * with EARLY_ANSWERS=false, answers it through Fastify (the route's onRequest hook). Each answer is
 * compared header by header and its log line field by field. Over real sockets: light-my-request
 * (inject) never reaches the server's early answers.
 */

interface Shop {
  ctx: TestContext;
  base: string;
  lines: Record<string, unknown>[];
}

async function startShop(env: Record<string, string>): Promise<Shop> {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString("utf8").split("\n").filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  const ctx = await createTestApp({ LOG_LEVEL: "info", ...env }, { logger: { level: "info", stream } });
  const base = await ctx.app.listen({ port: 0, host: "127.0.0.1" });
  return { ctx, base, lines };
}

let early: Shop;
let throughFastify: Shop;

beforeAll(async () => {
  early = await startShop({});
  throughFastify = await startShop({ EARLY_ANSWERS: "false" });
});
afterAll(async () => {
  await early?.ctx.close();
  await throughFastify?.ctx.close();
});

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** node:http rather than fetch: every header as sent, and no decompression. */
function get(base: string, path: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    http
      .get(`${base}${path}`, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
      })
      .on("error", reject);
  });
}

/** The access line of the request `answer` answered, once it is written (after the answer is sent). */
async function accessLine(shop: Shop, answer: Answer): Promise<Record<string, unknown>> {
  const reqId = answer.headers["x-request-id"];
  const find = () => shop.lines.find((l) => l.reqId === reqId && l.msg === "request completed");
  await until(`the access line of request ${reqId}`, () => find() !== undefined);
  return find() ?? {};
}

/** Header by header, those that differ per answer aside: its date, and its request's id (checked). */
function comparable({ date, "x-request-id": id, ...headers }: http.IncomingHttpHeaders) {
  expect(date).toBeTruthy();
  expect(id).toMatch(/^[0-9a-f]{32}$/);
  return headers;
}

/** Field by field, those that differ per request aside: its time, id and duration (checked). */
function comparableLine({ time, reqId, ms, ...fields }: Record<string, unknown>) {
  expect(typeof time).toBe("number");
  expect(reqId).toMatch(/^[0-9a-f]{32}$/);
  expect(typeof ms).toBe("number");
  return fields;
}

/** Asks `path` twice of each shop (the first fills the cache); the second answers, and their lines. */
async function cachedAnswers(path: string, headers: Record<string, string> = {}) {
  const counted = earlyAnswerCount("/api/products");
  const answers = [];
  for (const shop of [early, throughFastify]) {
    await get(shop.base, path);
    const before = counted.ok + counted.notModified;
    const answer = await get(shop.base, path, headers);
    answers.push({
      answer,
      line: await accessLine(shop, answer),
      early: counted.ok + counted.notModified > before,
    });
  }
  const [fromEarly, fromFastify] = answers as [(typeof answers)[0], (typeof answers)[0]];
  // The first shop answered early, the second through Fastify.
  expect(fromEarly.early).toBe(true);
  expect(fromFastify.early).toBe(false);
  return { fromEarly, fromFastify };
}

describe("the early path and Fastify's path", () => {
  it("send the same headers and bytes, and log the same fields, for a 200", async () => {
    const { fromEarly, fromFastify } = await cachedAnswers("/api/products?category=mice");
    expect(fromEarly.answer.status).toBe(200);
    expect(fromFastify.answer.status).toBe(200);
    expect(comparable(fromEarly.answer.headers)).toEqual(comparable(fromFastify.answer.headers));
    expect(fromEarly.answer.body.equals(fromFastify.answer.body)).toBe(true);
    // Every security header the shop sends (plugins/security.ts), in both.
    for (const [name, value] of Object.entries(early.ctx.app.securityHeaders))
      expect(fromEarly.answer.headers[name]).toBe(value);

    expect(comparableLine(fromEarly.line)).toEqual(comparableLine(fromFastify.line));
    expect(fromEarly.line).toMatchObject({
      method: "GET",
      route: "/api/products",
      status: 200,
      userId: null,
    });
  });

  it("send the same headers and log the same fields for a 304 and a compressed copy", async () => {
    const path = "/api/products?category=keyboards";
    const etag = String((await get(early.base, path)).headers.etag);
    const notModified = await cachedAnswers(path, { "If-None-Match": etag });
    expect(notModified.fromEarly.answer.status).toBe(304);
    expect(notModified.fromFastify.answer.status).toBe(304);
    expect(comparable(notModified.fromEarly.answer.headers)).toEqual(
      comparable(notModified.fromFastify.answer.headers),
    );
    expect(comparableLine(notModified.fromEarly.line)).toEqual(comparableLine(notModified.fromFastify.line));

    const br = await cachedAnswers(`${path}&page=1`, { "Accept-Encoding": "br" });
    expect(br.fromEarly.answer.headers["content-encoding"]).toBe("br");
    expect(comparable(br.fromEarly.answer.headers)).toEqual(comparable(br.fromFastify.answer.headers));
    expect(br.fromEarly.answer.body.equals(br.fromFastify.answer.body)).toBe(true);
    expect(comparableLine(br.fromEarly.line)).toEqual(comparableLine(br.fromFastify.line));
  });
});
