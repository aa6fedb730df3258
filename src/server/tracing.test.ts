import { readdirSync, readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { users } from "./db/schema/index.js";
import { sendDueMails } from "./features/mail/outbox.js";
import type { Mailer } from "./lib/mailer.js";
import { startPeriodicJob } from "./lib/periodic.js";
import {
  flushTraces,
  REQUEST_ID_ATTRIBUTE,
  startTracing,
  stopTracing,
  tracingWanted,
} from "./lib/tracing.js";
import { setUpTestApp } from "./test/app.js";
import { insertProduct } from "./test/products.js";
import { until } from "./test/until.js";
import { ORIGIN } from "./test/users.js";

// Traces (lib/tracing.ts, docs/operations.md): a real OTLP/HTTP receiver, the shop's own exporter
// pointed at it by the standard variable, and one booking followed from its request to its mail.

type Attribute = { key: string; value: { stringValue?: string; intValue?: string | number } };
interface ExportedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  attributes?: Attribute[];
}

/** An OTLP/HTTP (JSON) trace receiver, keeping every span it is sent. */
function otlpReceiver() {
  const spans: ExportedSpan[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      if (req.url === "/v1/traces") {
        const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as {
          resourceSpans?: { scopeSpans?: { spans?: ExportedSpan[] }[] }[];
        };
        for (const r of body.resourceSpans ?? [])
          for (const s of r.scopeSpans ?? []) spans.push(...(s.spans ?? []));
      }
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  return { spans, server };
}

/** Waits until the receiver holds a span `match` accepts, and gives it. */
async function spanWhere(what: string, match: (span: ExportedSpan) => boolean): Promise<ExportedSpan> {
  await until(what, () => receiver.spans.some(match));
  const span = receiver.spans.find(match);
  if (!span) throw new Error(what);
  return span;
}

const attribute = (span: ExportedSpan, key: string) => {
  const value = span.attributes?.find((a) => a.key === key)?.value;
  return value?.stringValue ?? value?.intValue;
};

const receiver = otlpReceiver();
await new Promise<void>((resolve) => receiver.server.listen(0, "127.0.0.1", resolve));
process.env.OTEL_EXPORTER_OTLP_ENDPOINT = `http://127.0.0.1:${(receiver.server.address() as AddressInfo).port}`;
process.env.OTEL_BSP_SCHEDULE_DELAY = "50";
// Before the app (its server and its database clients) is made, as main.ts does.
expect(await startTracing("test")).toBe(true);

const ctx = setUpTestApp({}, { rateLimit: { max: 10_000, windowSeconds: 60 } });
const alice = ctx.signedUpUser({ name: "Alice Traced" });
let base = "";

beforeAll(async () => {
  await ctx.database.db.update(users).set({ emailVerified: true }).where(eq(users.id, alice.id));
  await ctx.app.listen({ port: 0, host: "127.0.0.1" });
  base = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await stopTracing();
  receiver.server.close();
  delete process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
  delete process.env.OTEL_BSP_SCHEDULE_DELAY;
});

describe("traces", () => {
  it("follows one booking from its HTTP request through its SQL to its mail's send, in one trace", async () => {
    const productId = await insertProduct(ctx.database.db, { price: 30, quantity: 100 });
    const res = await fetch(`${base}/api/orders`, {
      method: "POST",
      headers: { origin: ORIGIN, cookie: alice.cookie, "content-type": "application/json" },
      body: JSON.stringify({ productId, quantity: 10, address: "1 Trace Road, Austin", phone: "5550123" }),
    });
    expect(res.status, await res.text()).toBe(201);
    const requestId = res.headers.get("x-request-id") ?? "";
    expect(requestId).not.toBe("");

    const sent: unknown[] = [];
    const mailer: Mailer = { send: async (mail) => void sent.push(mail) };
    await sendDueMails({ db: ctx.database.db, mailer, publicUrl: ORIGIN, maxAttempts: 3 });
    expect(sent.length).toBeGreaterThan(0);
    await flushTraces();

    const request = await spanWhere(
      "the booking's request span",
      (s) => s.name === "POST /api/orders" && attribute(s, REQUEST_ID_ATTRIBUTE) === requestId,
    );
    const trace = () => receiver.spans.filter((s) => s.traceId === request.traceId);
    const send = await spanWhere(
      "the mail's send in the booking's trace",
      (s) =>
        s.traceId === request.traceId &&
        s.name === "mail send" &&
        attribute(s, "gearhouse.mail.kind") === "order_placed",
    );
    // The booking's own statement, a child of the request, carrying the request's id.
    const booking = trace().find((s) => String(attribute(s, "db.query.text") ?? "").includes("book_order("));
    expect(booking?.parentSpanId).toBe(request.spanId);
    expect(attribute(booking as ExportedSpan, REQUEST_ID_ATTRIBUTE)).toBe(requestId);
    expect(attribute(booking as ExportedSpan, "db.system.name")).toBe("postgresql");
    // Every span the request made carries its id; the send, later, belongs to the same trace.
    const underRequest = trace().filter((s) => s.parentSpanId === request.spanId);
    expect(underRequest.length).toBeGreaterThan(1);
    for (const span of underRequest) expect(attribute(span, REQUEST_ID_ATTRIBUTE), span.name).toBe(requestId);
    expect(send.traceId).toBe(request.traceId);
    expect(attribute(send, REQUEST_ID_ATTRIBUTE)).toBe(requestId);
    // The send's own statements are its children.
    expect(trace().some((s) => s.parentSpanId === send.spanId && s.name.startsWith("pg "))).toBe(true);
  });

  it("puts each run of a background job in a span, with its statements under it", async () => {
    let runs = 0;
    const job = startPeriodicJob(
      0.01,
      async () => {
        runs += 1;
        await ctx.database.db.execute(sql`select 1 as traced_job_statement`);
      },
      "traced test",
    );
    await until("two runs of the job", () => runs >= 2);
    await job.stop();
    await flushTraces();
    const run = await spanWhere("a run's span", (s) => s.name === "job traced test");
    await spanWhere(
      "the run's statement under it",
      (s) =>
        s.parentSpanId === run.spanId &&
        String(attribute(s, "db.query.text")).includes("traced_job_statement"),
    );
  });
});

describe("off by default", () => {
  it("is wanted only with an OTLP endpoint, and not when turned off by the standard settings", () => {
    expect(tracingWanted({})).toBe(false);
    expect(tracingWanted({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318" })).toBe(true);
    expect(tracingWanted({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://collector:4318/v1/traces" })).toBe(
      true,
    );
    expect(tracingWanted({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318", OTEL_SDK_DISABLED: "true" })).toBe(
      false,
    );
    expect(
      tracingWanted({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318", OTEL_TRACES_EXPORTER: "none" }),
    ).toBe(false);
  });

  it("loads OpenTelemetry only from lib/tracing.ts, and only when tracing starts", () => {
    const root = import.meta.dirname;
    const files = readdirSync(root, { recursive: true, encoding: "utf8" }).filter(
      (f) => f.endsWith(".ts") && !f.endsWith(".test.ts"),
    );
    const loading = files.filter((f) =>
      /^import (?!type )[^;]*from "@opentelemetry\//m.test(readFileSync(path.join(root, f), "utf8")),
    );
    expect(loading).toEqual([]);
    const tracing = readFileSync(path.join(root, "lib/tracing.ts"), "utf8");
    expect(tracing).toMatch(/await Promise\.all\(\[\s*import\("@opentelemetry\/api"\)/);
  });
});
