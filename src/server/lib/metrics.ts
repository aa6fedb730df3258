import { createServer, type Server } from "node:http";
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";

/**
 * The shop's metrics in Prometheus' format (prom-client), one registry per process: what each
 * instance did since it started (counters), how long it took (histograms) and how it stands now
 * (gauges, read at each scrape). Served by plugins/metrics.ts; every metric is listed, with the
 * alerts worth setting, in docs/operations.md.
 */
export const registry = new Registry();

// The process: CPU, memory, heap, GC, and the event loop's delay (nodejs_eventloop_lag_*,
// gearhouse_nodejs_eventloop_delay_p99_seconds among others).
collectDefaultMetrics({ register: registry, prefix: "gearhouse_" });

const httpDuration = new Histogram({
  name: "gearhouse_http_request_duration_seconds",
  help: "Time from a request's arrival to its answer, by method, route pattern and status.",
  labelNames: ["method", "route", "status"] as const,
  buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [registry],
});

const timedBy = new Map<string, ReturnType<typeof httpDuration.labels>>();

/**
 * Times one request into httpDuration, through a child per (method, route, status) made once:
 * observing by a labels object hashes it on every call, which the catalog's early answers (tens of
 * thousands a second) would feel.
 */
export function observeRequest(method: string, route: string, status: number, seconds: number): void {
  const key = `${method} ${status} ${route}`;
  let child = timedBy.get(key);
  if (!child) {
    child = httpDuration.labels(method, route, String(status));
    timedBy.set(key, child);
  }
  child.observe(seconds);
}

/** Answers given early from the catalog cache for one route, counted in plain numbers by status. */
export interface EarlyAnswerCount {
  /** 200s */
  ok: number;
  /** 304s */
  notModified: number;
}

const early = new Map<string, EarlyAnswerCount>();

/**
 * The count of the answers the catalog gives from its cache on node:http for `route`
 * (plugins/early-answers.ts), made once per route: the answer adds one to a field. They come tens
 * of thousands a second and take microseconds, so they are counted, not timed: timing each into
 * the histogram cost 6 % of their throughput (`npm run bench`, throughput), and a key string made
 * per answer to count it in a Map cost about 0.4 µs of the 20 µs an answer takes. Prometheus reads
 * the numbers at each scrape.
 */
export function earlyAnswerCount(route: string): EarlyAnswerCount {
  let count = early.get(route);
  if (!count) {
    count = { ok: 0, notModified: 0 };
    early.set(route, count);
  }
  return count;
}

new Counter({
  name: "gearhouse_early_answers_total",
  help: "Catalog answers given from the cache before routing (not in the duration histogram), by route and status.",
  labelNames: ["route", "status"] as const,
  registers: [registry],
  collect() {
    this.reset();
    for (const [route, count] of early) {
      if (count.ok) this.inc({ route, status: "200" }, count.ok);
      if (count.notModified) this.inc({ route, status: "304" }, count.notModified);
    }
  },
});

export type OrderEvent = "placed" | "paid" | "shipped" | "removed" | "expired" | "refunded";

/**
 * A counter of the process's registry with one label, and the function that counts into it: `n`
 * (one unless given) of `value`, nothing when `n` is not above zero.
 */
function labelledCounter<Value extends string>(name: string, help: string, label: string) {
  const counter = new Counter({ name, help, labelNames: [label], registers: [registry] });
  return (value: Value, n = 1): void => {
    if (n > 0) counter.inc({ [label]: value }, n);
  };
}

/**
 * Counts `n` orders moved by `event`, when the statement that moved them returned them (inside
 * its transaction: one that rolls back after that, which the shop's transactions do only on an
 * error, is still counted).
 */
export const countOrders = labelledCounter<OrderEvent>(
  "gearhouse_orders_total",
  "Orders this instance moved, by event: placed, paid, shipped, removed, expired, refunded.",
  "event",
);

/** Counts a card payment refused for `reason`. */
export const countPaymentFailure = labelledCounter(
  "gearhouse_payment_failures_total",
  "Card payments refused, by reason (the sandbox's judgement, or Stripe's decline code).",
  "reason",
);

/** Counts `n` rows of `table` removed by the retention job (features/retention). */
export const countRetentionRemovals = labelledCounter(
  "gearhouse_retention_rows_removed_total",
  "Rows the retention job removed, by table: idempotency_key, mail_outbox, sandbox_intent.",
  "table",
);

/**
 * A gauge whose value is read when Prometheus scrapes (a queue's depth, a pool's use), in the
 * registry of the app it reads from (plugins/metrics.ts). A read that fails (the database away)
 * leaves the gauge out of that scrape rather than failing it.
 */
export function gaugeOf(
  into: Registry,
  name: string,
  help: string,
  read: () => number | Promise<number>,
): void {
  new Gauge({
    name,
    help,
    registers: [into],
    async collect() {
      try {
        this.set(await read());
      } catch {
        this.reset();
      }
    },
  });
}

/** The process's metrics and an app's gauges, in Prometheus' text format. */
export function metricsText(gauges: Registry): Promise<string> {
  return Registry.merge([registry, gauges]).metrics();
}

/**
 * The metrics on a port of their own (METRICS_PORT), for Prometheus to scrape each instance
 * directly and never through the load balancer or from the internet. Returns its server.
 */
export function serveMetrics(port: number, host: string, gauges: Registry): Promise<Server> {
  const server = createServer(async (req, res) => {
    if (req.method !== "GET" || req.url !== "/metrics") {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { "content-type": registry.contentType }).end(await metricsText(gauges));
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve(server));
  });
}

type InvoiceRenderSource = "thread" | "main" | "cache" | "shared";

/** Counts an invoice asked for, by where its bytes came from. */
export const countInvoiceRender = labelledCounter<InvoiceRenderSource>(
  "gearhouse_invoice_renders_total",
  "Invoices asked for, by where their bytes came from: rendered in the render thread (thread) or on the requests' thread (main), kept from an earlier render (cache), or shared with a render of the same invoice under way (shared).",
  "source",
);
