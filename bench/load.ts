// The load generator, run as its own process (pinned to its own core by bench/run.ts) so that it
// never shares an event loop or a core with the server it measures. Takes one job as JSON in argv,
// prints one result as JSON on stdout.
//
// Two kinds of HTTP load. Closed loop (autocannon): every connection sends its next request as
// soon as the last is answered, which finds the maximum rate. Fixed rate (fixed-rate.ts, open
// loop): latency counts from when each request was due. autocannon's own -R cannot do that: it
// lets each connection send its quota for the second back to back as soon as the second begins,
// so its "fixed rate" is a burst at full concurrency every second, and its correction for
// coordinated omission assumes an interval of 1 ms.
import { readFileSync } from "node:fs";
import autocannon from "autocannon";
import { fixedRate } from "./fixed-rate.js";

interface HttpRequestSpec {
  url: string;
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  body?: string;
  /** Cookie headers used in turn (one per connection, or per request at a fixed rate). */
  cookies?: string[];
}

export interface ClosedLoopJob extends HttpRequestSpec {
  kind: "closed";
  connections: number;
  durationSeconds: number;
}

export interface FixedRateJob extends HttpRequestSpec {
  kind: "rate";
  requestsPerSecond: number;
  /** Most requests in flight at once; a request due while all are busy waits, and that wait counts. */
  connections: number;
  durationSeconds: number;
}

export interface UploadJob {
  kind: "uploads";
  url: string;
  origin: string;
  cookie: string;
  imagePath: string;
  /** Uploads in flight at once, each starting the next as soon as it ends. */
  concurrency: number;
  durationSeconds: number;
}

export type LoadJob = ClosedLoopJob | FixedRateJob | UploadJob;

export interface LoadResult {
  requests: number;
  requestsPerSecond: number;
  /** 2xx answers per second. */
  succeededPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** Answers outside 2xx, connection errors and timeouts. */
  failures: number;
  /** CPU time of this process over its wall time: near 1, the generator was the bottleneck. */
  cpuShare: number;
}

type Measured = Omit<LoadResult, "cpuShare">;

function summarize(latencies: number[], failures: number, seconds: number): Measured {
  const sorted = latencies.sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  return {
    requests: sorted.length,
    requestsPerSecond: sorted.length / seconds,
    succeededPerSecond: (sorted.length - failures) / seconds,
    p50Ms: Number(at(0.5).toFixed(2)),
    p99Ms: Number(at(0.99).toFixed(2)),
    maxMs: Number((sorted.at(-1) ?? 0).toFixed(2)),
    failures,
  };
}

async function runClosedLoop(job: ClosedLoopJob): Promise<Measured> {
  let next = 0;
  const result = await autocannon({
    url: job.url,
    connections: job.connections,
    duration: job.durationSeconds,
    pipelining: 1,
    method: job.method ?? "GET",
    headers: job.headers,
    body: job.body,
    setupClient: (client) => {
      const cookie = job.cookies?.[next++ % job.cookies.length];
      if (cookie) client.setHeaders({ ...job.headers, cookie });
    },
  });
  return {
    requests: result.requests.total,
    requestsPerSecond: result.requests.total / result.duration,
    succeededPerSecond: result["2xx"] / result.duration,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    maxMs: result.latency.max,
    failures: result.non2xx + result.errors + result.timeouts,
  };
}

async function runFixedRate(job: FixedRateJob): Promise<Measured> {
  const { latenciesMs, failures, seconds } = await fixedRate(job);
  return summarize(latenciesMs, failures, seconds);
}

async function runUploads(job: UploadJob): Promise<Measured> {
  const image = new Blob([readFileSync(job.imagePath)], { type: "image/jpeg" });
  const deadline = Date.now() + job.durationSeconds * 1000;
  const latencies: number[] = [];
  let failures = 0;
  const loop = async () => {
    while (Date.now() < deadline) {
      const form = new FormData();
      form.append("image", image, "bench.jpg");
      const started = performance.now();
      const res = await fetch(job.url, {
        method: "POST",
        headers: { cookie: job.cookie, origin: job.origin },
        body: form,
      });
      await res.arrayBuffer();
      latencies.push(performance.now() - started);
      if (res.status !== 201) failures += 1;
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: job.concurrency }, loop));
  return summarize(latencies, failures, (performance.now() - started) / 1000);
}

async function main() {
  const job = JSON.parse(process.argv[2] ?? "{}") as LoadJob;
  const wallStart = process.hrtime.bigint();
  const cpuStart = process.cpuUsage();
  const result =
    job.kind === "uploads"
      ? await runUploads(job)
      : job.kind === "rate"
        ? await runFixedRate(job)
        : await runClosedLoop(job);
  const cpu = process.cpuUsage(cpuStart);
  const wallMicros = Number(process.hrtime.bigint() - wallStart) / 1000;
  const output: LoadResult = { ...result, cpuShare: (cpu.user + cpu.system) / wallMicros };
  process.stdout.write(JSON.stringify(output));
}

await main();
