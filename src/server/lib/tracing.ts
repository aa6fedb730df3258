import type { IncomingMessage, RequestListener, ServerResponse } from "node:http";
import type { Attributes, Context, Span, Tracer } from "@opentelemetry/api";
import type pg from "pg";

// OpenTelemetry traces (docs/operations.md, "Traces"), off unless the standard OTLP settings ask for
// them. Off, nothing of OpenTelemetry is loaded: every function here is a check of one variable and
// a direct call. On (startTracing, before the app is built), each HTTP request is a server span, each
// SQL statement a client span under it, and the background work (mail outbox sends, image work, the
// periodic jobs) spans of their own. Every span of a request carries its id (gearhouse.request_id),
// the id its answer's X-Request-Id header and log lines carry. A mail queued by a request's
// transaction keeps the request's trace context in its outbox row (trace_parent, migration 0028):
// its send, later and on any instance, is a span of the same trace.

type Api = typeof import("@opentelemetry/api");

interface Active {
  api: Api;
  tracer: Tracer;
  /** A request's id, by the spans of that request (the server span and every span under it). */
  requestIds: WeakMap<object, string>;
  flush(): Promise<void>;
  shutdown(): Promise<void>;
}

let active: Active | undefined;

/** The attribute each span of a request carries its id in. */
export const REQUEST_ID_ATTRIBUTE = "gearhouse.request_id";
/** The setting a transaction's writes read the trace context from (mail_outbox.trace_parent's default). */
export const TRACE_SETTING = "gearhouse.trace_parent";

type Env = Record<string, string | undefined>;

/**
 * Whether the environment asks for traces: an OTLP endpoint is set (OTEL_EXPORTER_OTLP_ENDPOINT or
 * its traces-only form) and neither OTEL_SDK_DISABLED nor OTEL_TRACES_EXPORTER=none turns them off.
 */
export function tracingWanted(env: Env = process.env): boolean {
  const endpoint = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || env.OTEL_EXPORTER_OTLP_ENDPOINT;
  if (!endpoint) return false;
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === "true") return false;
  return env.OTEL_TRACES_EXPORTER?.trim().toLowerCase() !== "none";
}

/** Whether traces are being recorded (startTracing ran and the environment asked for them). */
export function tracingOn(): boolean {
  return active !== undefined;
}

/**
 * Starts tracing when the environment asks for it (tracingWanted): spans batched and exported over
 * OTLP/HTTP to the endpoint, with the other standard OTEL_* settings (headers, timeout, sampler,
 * batch sizes, OTEL_SERVICE_NAME, OTEL_RESOURCE_ATTRIBUTES) read by OpenTelemetry itself. Once per
 * process; returns whether tracing is on.
 */
export async function startTracing(version: string, env: Env = process.env): Promise<boolean> {
  if (active) return true;
  if (!tracingWanted(env)) return false;
  const [api, { NodeTracerProvider, BatchSpanProcessor }, { OTLPTraceExporter }, resources] =
    await Promise.all([
      import("@opentelemetry/api"),
      import("@opentelemetry/sdk-trace-node"),
      import("@opentelemetry/exporter-trace-otlp-http"),
      import("@opentelemetry/resources"),
    ]);
  const requestIds = new WeakMap<object, string>();
  const resource = resources
    .defaultResource()
    .merge(resources.resourceFromAttributes({ "service.name": "gearhouse", "service.version": version }))
    .merge(resources.detectResources({ detectors: [resources.envDetector] }));
  const provider = new NodeTracerProvider({
    resource,
    spanProcessors: [
      {
        // A span started under a request's span carries the request's id too.
        onStart(span, parent) {
          const id = requestIds.get(api.trace.getSpan(parent) ?? {});
          if (id === undefined) return;
          requestIds.set(span, id);
          span.setAttribute(REQUEST_ID_ATTRIBUTE, id);
        },
        onEnd() {},
        forceFlush: async () => {},
        shutdown: async () => {},
      },
      new BatchSpanProcessor(new OTLPTraceExporter()),
    ],
  });
  // The context manager (AsyncLocalStorage) and the W3C trace-context propagator.
  provider.register();
  active = {
    api,
    tracer: api.trace.getTracer("gearhouse", version),
    requestIds,
    flush: () => provider.forceFlush(),
    shutdown: () => provider.shutdown(),
  };
  return true;
}

/** Sends the spans still batched and stops tracing (the shop's stop, after the app has closed). */
export async function stopTracing(): Promise<void> {
  const was = active;
  active = undefined;
  if (!was) return;
  await was.shutdown();
  // The process's OpenTelemetry globals, as they were before startTracing.
  was.api.trace.disable();
  was.api.context.disable();
  was.api.propagation.disable();
}

/** Exports the spans ended so far now, not at the batch's next turn. */
export async function flushTraces(): Promise<void> {
  await active?.flush();
}

/** The active span gets the request's id, and so does every span started under it. */
export function tagRequest(id: string): void {
  if (!active) return;
  const span = active.api.trace.getActiveSpan();
  if (!span) return;
  active.requestIds.set(span, id);
  span.setAttribute(REQUEST_ID_ATTRIBUTE, id);
}

/** Names the active (request) span by its route, once Fastify has routed it. */
export function nameRequest(method: string, route: string | undefined): void {
  if (!active || !route) return;
  const span = active.api.trace.getActiveSpan();
  span?.updateName(`${method} ${route}`);
  span?.setAttribute("http.route", route);
}

/**
 * The server's request listener, each request in a server span (continuing the caller's trace when
 * it sends a W3C traceparent) that ends when its answer is sent or its connection is gone. The
 * listener itself when tracing is off.
 */
export function tracedListener(listener: RequestListener): RequestListener {
  const on = active;
  if (!on) return listener;
  const { api, tracer } = on;
  return (req: IncomingMessage, res: ServerResponse) => {
    const parent = api.propagation.extract(api.ROOT_CONTEXT, req.headers);
    const span = tracer.startSpan(
      req.method ?? "HTTP",
      {
        kind: api.SpanKind.SERVER,
        attributes: {
          "http.request.method": req.method ?? "",
          "url.path": (req.url ?? "").split("?")[0] ?? "",
        },
      },
      parent,
    );
    res.once("close", () => {
      span.setAttribute("http.response.status_code", res.statusCode);
      if (res.statusCode >= 500) span.setStatus({ code: api.SpanStatusCode.ERROR });
      span.end();
    });
    api.context.with(api.trace.setSpan(parent, span), () => listener(req, res));
  };
}

function ended(on: Active, span: Span, error?: unknown): void {
  if (error !== undefined) {
    span.recordException(error instanceof Error ? error : String(error));
    span.setStatus({ code: on.api.SpanStatusCode.ERROR });
  }
  span.end();
}

/**
 * The context a kept trace context names (a mail's, from its outbox row: activeTraceParent's form),
 * or the active one; with the id of the request that kept it, if any.
 */
function contextOf(on: Active, kept: string | null | undefined): { parent: Context; requestId?: string } {
  if (!kept) return { parent: on.api.context.active() };
  const [traceparent = "", requestId] = kept.split(" ");
  return { parent: on.api.propagation.extract(on.api.ROOT_CONTEXT, { traceparent }), requestId };
}

/**
 * Runs `work` in a span named `name` (a child of the active span, or of `traceParent` when given),
 * which records what it throws. Just `work()` when tracing is off.
 */
export function inSpan<T>(
  name: string,
  attributes: Attributes,
  work: () => Promise<T>,
  traceParent?: string | null,
): Promise<T> {
  const on = active;
  if (!on) return work();
  const { parent, requestId } = contextOf(on, traceParent);
  return on.tracer.startActiveSpan(name, { attributes }, parent, async (span) => {
    if (requestId) {
      on.requestIds.set(span, requestId);
      span.setAttribute(REQUEST_ID_ATTRIBUTE, requestId);
    }
    try {
      const result = await work();
      ended(on, span);
      return result;
    } catch (error) {
      ended(on, span, error);
      throw error;
    }
  });
}

/**
 * The active span's context, to keep with work done later (a mail's send), if tracing: its W3C
 * traceparent, then a space and its request's id when it belongs to a request (request ids have no
 * spaces, lib/request-id.ts).
 */
export function activeTraceParent(): string | undefined {
  const on = active;
  if (!on) return undefined;
  const carrier: Record<string, string> = {};
  on.api.propagation.inject(on.api.context.active(), carrier);
  if (!carrier.traceparent) return undefined;
  const requestId = on.requestIds.get(on.api.trace.getActiveSpan() ?? {});
  return requestId ? `${carrier.traceparent} ${requestId}` : carrier.traceparent;
}

type Query = (...args: unknown[]) => unknown;

/** The SQL text of a pg query call's first argument. */
function sqlText(first: unknown): string {
  if (typeof first === "string") return first;
  const text = (first as { text?: unknown } | null)?.text;
  return typeof text === "string" ? text : "";
}

/**
 * Puts each statement a pool client runs in a client span (the statement's text, never its values)
 * under the active span. When a transaction begins, it is told the active trace context
 * (TRACE_SETTING, local to the transaction), so the mails its writes queue keep the trace.
 * Nothing when tracing is off.
 */
export function traceQueries(client: pg.PoolClient | pg.Client): void {
  const on = active;
  if (!on) return;
  const { api, tracer } = on;
  const query = client.query.bind(client) as Query;
  const traced: Query = (...args) => {
    const first = args[0];
    // A cursor or stream (a submittable) reports through its own events: passed through.
    if (typeof (first as { submit?: unknown } | null)?.submit === "function") return query(...args);
    const text = sqlText(first);
    const operation = /^\s*(\w+)/.exec(text)?.[1]?.toUpperCase() ?? "";
    const span = tracer.startSpan(
      operation ? `pg ${operation}` : "pg",
      {
        kind: api.SpanKind.CLIENT,
        attributes: { "db.system.name": "postgresql", "db.operation.name": operation, "db.query.text": text },
      },
      api.context.active(),
    );
    const parent = api.trace.setSpan(api.context.active(), span);
    const callback = args[args.length - 1];
    if (typeof callback === "function") {
      args[args.length - 1] = (error: unknown, result: unknown) => {
        ended(on, span, error ?? undefined);
        return api.context.with(parent, () => callback(error, result));
      };
      return query(...args);
    }
    const result = query(...args) as Promise<unknown>;
    const told =
      operation === "BEGIN"
        ? result.then(async (begun) => {
            await tellTransaction();
            return begun;
          })
        : result;
    return told.then(
      (r) => {
        ended(on, span);
        return r;
      },
      (error: unknown) => {
        ended(on, span, error);
        throw error;
      },
    );
  };
  const tellTransaction = async () => {
    const traceParent = activeTraceParent();
    if (traceParent) await query("select set_config($1, $2, true)", [TRACE_SETTING, traceParent]);
  };
  client.query = traced as typeof client.query;
}
