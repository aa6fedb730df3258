import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestContext } from "../app.js";
import { confirmWithCard, placeOrder, post, SANDBOX_CARD } from "../payments.js";
import { cookieHeader, memoryMailer, ORIGIN, signIn, signUp, type TestUser } from "../users.js";

/**
 * The logs an operator reads (issue 19, item 5): one JSON line per request with its id, route,
 * status, duration and user id, and never a password, token, card number or cookie, checked over a
 * whole journey: sign-up, sign-in, a password reset through its mailed link, an order paid by card,
 * refusals. The request id comes back in X-Request-Id and in every problem+json answer; the one
 * a trusted balancer passes in is kept.
 */

const lines: Record<string, unknown>[] = [];
const raw: string[] = [];
const stream = new Writable({
  write(chunk: Buffer, _encoding, done) {
    for (const line of chunk.toString("utf8").split("\n").filter(Boolean)) {
      raw.push(line);
      lines.push(JSON.parse(line));
    }
    done();
  },
});
const mailer = memoryMailer();
let ctx: TestContext;
let trusting: TestContext;

beforeAll(async () => {
  ctx = await createTestApp(
    { LOG_LEVEL: "info" },
    { mailer, logger: { level: "info", stream }, rateLimit: { max: 10_000, windowSeconds: 60 } },
  );
  // The balancer is at 127.0.0.1, where light-my-request's requests come from unless told.
  trusting = await createTestApp({ TRUST_PROXY: "127.0.0.1" });
});
afterAll(async () => {
  await ctx?.close();
  await trusting?.close();
});

const completed = () => lines.filter((l) => l.msg === "request completed");
const lineOf = (requestId: string) => completed().filter((l) => l.reqId === requestId);

describe("the logs", () => {
  it("hold no password, token, card number or cookie after a whole journey, and one line per request", async () => {
    const password = "JourneySecret9Pw";
    const user: TestUser = await signUp(ctx.app, { password, name: "Log Journey" });
    const signedIn = await signIn(ctx.app, user.email, password);
    expect(signedIn.statusCode).toBe(200);
    const cookie = cookieHeader(signedIn.headers["set-cookie"]);

    // A password reset through its link: the token travels in a URL and a body.
    const asked = await post(ctx, null, "/api/auth/request-password-reset", { email: user.email });
    expect(asked.statusCode).toBe(200);
    const link = mailer.sent.at(-1)?.text.match(/https?:\/\/\S+/)?.[0] ?? "";
    const token = new URL(link).searchParams.get("token") ?? "";
    expect(token.length).toBeGreaterThan(10);
    const followed = await ctx.app.inject({
      url: `/api/auth/reset-password/${token}?callbackURL=%2FpasswordReset`,
    });
    expect(followed.statusCode).toBeLessThan(500);
    const newPassword = "AnotherSecret7Pw";
    const reset = await ctx.app.inject({
      method: "POST",
      url: "/api/auth/reset-password",
      headers: { origin: ORIGIN },
      payload: { token, newPassword },
    });
    expect(reset.statusCode).toBe(200);

    // An order paid by card, and a refusal on the way.
    const again = await signIn(ctx.app, user.email, newPassword);
    const buyer = { ...user, password: newPassword, cookie: cookieHeader(again.headers["set-cookie"]) };
    const order = await placeOrder(ctx, buyer);
    const transactionId = await confirmWithCard(ctx, buyer, order.id);
    expect((await post(ctx, buyer, `/api/orders/${order.id}/pay`, { transactionId })).statusCode).toBe(200);
    const refused = await post(ctx, buyer, "/api/orders", { productId: order.productId, quantity: 1 });
    expect(refused.statusCode).toBe(400);

    const secrets = [
      password,
      newPassword,
      token,
      SANDBOX_CARD.number,
      SANDBOX_CARD.number.replaceAll(" ", ""),
      ...[cookie, buyer.cookie, user.cookie].flatMap((c) => [c, decodeURIComponent(c.split("=")[1] ?? "")]),
    ];
    const logs = raw.join("\n");
    for (const secret of secrets)
      expect(logs.includes(secret), `the logs hold ${secret.slice(0, 12)}…`).toBe(false);
    expect(logs).not.toMatch(/"cookie"|"authorization"|"set-cookie"/i);

    // One line per request, with what an operator looks for.
    const paid = completed().find((l) => l.route === "/api/orders/:id/pay");
    expect(paid).toMatchObject({
      method: "POST",
      status: 200,
      userId: user.id,
      reqId: expect.any(String),
    });
    expect(typeof paid?.ms).toBe("number");
    const ids = completed().map((l) => l.reqId);
    expect(new Set(ids).size).toBe(ids.length);
    const resetLine = completed().find((l) => String(l.route).startsWith("/api/auth"));
    expect(resetLine?.route).not.toContain(token);
  });

  it("answers the request id in X-Request-Id and in a problem, and logs it", async () => {
    const res = await ctx.app.inject({ url: "/api/orders/not-an-order" });
    const id = res.headers["x-request-id"];
    expect(typeof id).toBe("string");
    expect(res.json().requestId).toBe(id);
    expect(lineOf(String(id)), raw.slice(-3).join("\n")).toHaveLength(1);
    // A balancer's id is not taken from an untrusted client.
    const forged = await ctx.app.inject({ url: "/healthz", headers: { "x-request-id": "from-the-client" } });
    expect(forged.headers["x-request-id"]).not.toBe("from-the-client");
  });

  it("keeps the balancer's id when the proxy is trusted, unless it is malformed", async () => {
    const kept = await trusting.app.inject({
      url: "/api/nowhere",
      headers: { "x-request-id": "lb-7f3a.42" },
    });
    expect(kept.headers["x-request-id"]).toBe("lb-7f3a.42");
    expect(kept.json().requestId).toBe("lb-7f3a.42");
    const forged = await trusting.app.inject({
      url: "/healthz",
      headers: { "x-request-id": 'x" "msg":"forged' },
    });
    expect(forged.headers["x-request-id"]).toMatch(/^[0-9a-f]{32}$/);
    // A client reaching the instance past the balancer does not choose the id of its lines.
    const around = await trusting.app.inject({
      url: "/api/nowhere",
      remoteAddress: "203.0.113.7",
      headers: { "x-request-id": "lb-7f3a.43" },
    });
    expect(around.headers["x-request-id"]).toMatch(/^[0-9a-f]{32}$/);
  });
});
