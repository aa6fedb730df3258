import { timingSafeEqual } from "node:crypto";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { Registry } from "prom-client";
import { gaugeOf, metricsText, observeRequest, registry } from "../lib/metrics.js";
import { unauthorized } from "../lib/problem.js";

/**
 * Every request Fastify answers is timed into gearhouse_http_request_duration_seconds (the early
 * answers time their own: features/catalog/routes.ts), the database pool is read at each scrape,
 * and with METRICS_TOKEN set the metrics are served on GET /metrics to a scraper that sends it as
 * a bearer token (METRICS_PORT serves them on a port of their own instead: main.ts).
 */
declare module "fastify" {
  interface FastifyInstance {
    /** This app's gauges, read at each scrape (beside the process's metrics: lib/metrics.ts). */
    gauges: Registry;
    /** Adds a gauge read at each scrape from `read`. */
    gauge(name: string, help: string, read: () => number | Promise<number>): void;
  }
}

async function metricsPlugin(app: FastifyInstance) {
  const gauges = new Registry();
  app.decorate("gauges", gauges);
  app.decorate("gauge", (name: string, help: string, read: () => number | Promise<number>) =>
    gaugeOf(gauges, name, help, read),
  );
  const { pool } = app.database;
  const poolGauges = [
    ["connections", "Connections open in this instance's pool.", "totalCount"],
    ["idle_connections", "Open connections no query is using.", "idleCount"],
    [
      "waiting_queries",
      "Queries waiting for a connection of the pool (it is at its maximum).",
      "waitingCount",
    ],
  ] as const;
  for (const [name, help, count] of poolGauges)
    app.gauge(`gearhouse_db_pool_${name}`, help, () => pool[count]);
  app.addHook("onResponse", async (request, reply) => {
    observeRequest(
      request.method,
      request.routeOptions.url ?? "(unmatched)",
      reply.statusCode,
      reply.elapsedTime / 1000,
    );
  });

  const token = app.config.metricsToken;
  if (!token) return;
  const expected = Buffer.from(`Bearer ${token}`);
  app.get("/metrics", { schema: { hide: true } }, async (request, reply) => {
    const given = Buffer.from(request.headers.authorization ?? "");
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw unauthorized();
    return reply.type(registry.contentType).send(await metricsText(gauges));
  });
}

export default fp(metricsPlugin, { name: "metrics" });
