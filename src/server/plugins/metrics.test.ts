import { execFileSync, spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createTestApp, setUpTestApp } from "../test/app.js";
import { intentFor, paidOrder, placeOrder, post } from "../test/payments.js";

/**
 * The metrics (issue 19, item 3; docs/operations.md): behind METRICS_TOKEN on /metrics, in a
 * format promtool accepts, and moving with what the shop does.
 */

const TOKEN = "metrics-token-0123456789";
const ctx = setUpTestApp({ METRICS_TOKEN: TOKEN }, { rateLimit: { max: 100_000, windowSeconds: 60 } });
const alice = ctx.signedUpUser({ name: "Alice Metrics" });

async function scrape(): Promise<string> {
  const res = await ctx.app.inject({ url: "/metrics", headers: { authorization: `Bearer ${TOKEN}` } });
  expect(res.statusCode).toBe(200);
  expect(res.headers["content-type"]).toMatch(/^text\/plain; version=0.0.4/);
  return res.body;
}

/** The value of one series, e.g. `gearhouse_orders_total{event="paid"}`; 0 when absent. */
function seriesValue(text: string, series: string): number {
  const line = text.split("\n").find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

describe("metrics", () => {
  it("are refused without the token, and absent when no token is set", async () => {
    const without = await ctx.app.inject({ url: "/metrics" });
    expect(without.statusCode).toBe(401);
    const wrong = await ctx.app.inject({ url: "/metrics", headers: { authorization: "Bearer nope" } });
    expect(wrong.statusCode).toBe(401);
    const plain = await createTestApp();
    try {
      expect((await plain.app.inject({ url: "/metrics" })).statusCode).toBe(404);
    } finally {
      await plain.close();
    }
  });

  it("pass promtool's check, and list the request times, the pool, the event loop, the queues", async () => {
    await ctx.app.inject({ url: "/api/products" });
    await ctx.app.inject({ url: "/api/products?page=2" });
    const text = await scrape();
    // promtool lints the names too; the only complaints are about three of prom-client's own
    // process metrics (gauges named *_total), none about the shop's.
    const checked = spawnSync("promtool", ["check", "metrics"], { input: text, encoding: "utf8" });
    expect(checked.error).toBeUndefined();
    const complaints = `${checked.stdout}${checked.stderr}`.split("\n").filter(Boolean);
    for (const line of complaints)
      expect(line).toMatch(/^gearhouse_nodejs_active_(handles|requests|resources)_total non-counter metrics/);
    expect(text).toMatch(
      /gearhouse_http_request_duration_seconds_bucket\{le="[^"]+",method="GET",route="\/api\/products",status="200"\}/,
    );
    for (const name of [
      "gearhouse_db_pool_connections",
      "gearhouse_db_pool_idle_connections",
      "gearhouse_db_pool_waiting_queries",
      "gearhouse_nodejs_eventloop_lag_p99_seconds",
      "gearhouse_image_queue_depth",
      "gearhouse_mail_outbox_backlog",
    ])
      expect(text, name).toMatch(new RegExp(`^${name} \\d`, "m"));
  });

  it("count orders placed, paid and removed, and card payments refused by reason", async () => {
    const before = await scrape();
    await paidOrder(ctx, alice);
    const removed = await placeOrder(ctx, alice);
    await ctx.app.inject({
      method: "DELETE",
      url: `/api/orders/${removed.id}`,
      headers: { cookie: alice.cookie, origin: "http://localhost:3000" },
    });
    const declined = await placeOrder(ctx, alice);
    const intent = await intentFor(ctx, alice, declined.id);
    const refused = await post(ctx, alice, "/api/payments/sandbox/confirm", {
      clientSecret: intent.clientSecret,
      card: {
        number: "4000 0000 0000 0002",
        expMonth: 12,
        expYear: new Date().getUTCFullYear() + 2,
        cvc: "123",
      },
      billing: { name: "Alice", email: alice.email },
    });
    expect(refused.statusCode).toBe(402);
    const after = await scrape();
    const moved = (series: string) => seriesValue(after, series) - seriesValue(before, series);
    expect(moved('gearhouse_orders_total{event="placed"}')).toBe(3);
    expect(moved('gearhouse_orders_total{event="paid"}')).toBe(1);
    expect(moved('gearhouse_orders_total{event="removed"}')).toBe(1);
    expect(moved('gearhouse_payment_failures_total{reason="card_declined"}')).toBe(1);
    // Two queued mails at least: the placed orders' (this app sends none by itself).
    expect(seriesValue(after, "gearhouse_mail_outbox_backlog")).toBeGreaterThanOrEqual(3);
  });

  it("the documented scrape configuration passes promtool check config", () => {
    const config = path.resolve(import.meta.dirname, "../../../docs/prometheus.yml");
    const out = execFileSync("promtool", ["check", "config", config], { encoding: "utf8" });
    expect(out).toMatch(/SUCCESS/);
  });
});
