// The load generator, run as its own process (pinned to its own core by bench/run.ts) so that it
// never shares an event loop or a core with the server it measures. Takes one job as JSON in argv,
// prints one result as JSON on stdout.
//
// Two kinds of HTTP load. Closed loop (wrk, from Debian): every connection sends its next request
// as soon as the last is answered, which finds the maximum rate. wrk is C on one thread; node's
// autocannon, used before, spent 95 % of its core at the rates the shop reaches here, so it
// measured itself as much as the server. Fixed rate (fixed-rate.ts, open loop): latency counts
// from when each request was due; wrk's and autocannon's own rate options send each second's
// quota as a burst and do not count the wait of requests that were due.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Connection, fixedRate } from "./fixed-rate.js";
import { cpuMs } from "./processes.js";

interface HttpRequestSpec {
  url: string;
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  body?: string;
  /** Cookie headers, one per request in turn. */
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

interface UploadJob {
  kind: "uploads";
  url: string;
  origin: string;
  cookie: string;
  imagePath: string;
  /** Uploads in flight at once, each starting the next as soon as it ends. */
  concurrency: number;
  durationSeconds: number;
}

/**
 * Closed loops against several servers in turn, in short windows, from one generator process: the
 * host's speed drifts over tens of seconds (docs/decisions/throughput-windows.md), so servers
 * compared in windows a second apart see the same host. The turns go forward, then backward
 * (A B C, C B A, …), so a steady drift weighs on each server alike.
 */
export interface InterleavedJob {
  kind: "interleaved";
  /** Each server's closed loop (its durationSeconds is one window) and its pid, for its CPU time. */
  targets: { job: ClosedLoopJob; pid: number }[];
  /** Windows for each server. */
  windows: number;
}

export type LoadJob = ClosedLoopJob | FixedRateJob | UploadJob;

/** One window of an interleaved job, with the CPU time its server used in it. */
export interface LoadWindow extends LoadResult {
  serverCpuMs: number;
}

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
  /** Fixed-rate runs: the generator's own longest stall (fixed-rate.ts). */
  generatorStallMs?: number;
  /** Fixed-rate runs: the highest latency in each slice of the run (fixed-rate.ts, sliceMaxMs). */
  sliceMaxMs?: number[];
  /** Time the host took from this machine's CPUs during the run (steal, /proc/stat), in ms. */
  stealMs?: number;
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

/** wrk's latency figures ("812.00us", "3.41ms", "1.02s") in milliseconds. */
function wrkMs(text: string | undefined): number {
  const match = /^([\d.]+)(us|ms|s|m)$/.exec(text ?? "");
  if (!match) throw new Error(`wrk printed a latency of ${text}`);
  const factor = { us: 0.001, ms: 1, s: 1000, m: 60_000 }[match[2] as "us" | "ms" | "s" | "m"];
  return Number((Number(match[1]) * factor).toFixed(2));
}

/** A Lua string literal that holds `text` as it is (a long bracket no text here contains). */
const luaString = (text: string) => `[==[${text}]==]`;

/**
 * wrk's script for a job: its method, headers and body, and its cookies taken in turn, one per
 * request (each of the benchmark's customers orders in its turn).
 */
function wrkScript(job: ClosedLoopJob): string {
  const headers = Object.entries(job.headers ?? {})
    .map(([name, value]) => `wrk.headers[ ${luaString(name)} ] = ${luaString(value)}`)
    .join("\n");
  const cookies = (job.cookies ?? []).map(luaString).join(", ");
  return `wrk.method = ${luaString(job.method ?? "GET")}
${job.body === undefined ? "" : `wrk.body = ${luaString(job.body)}`}
${headers}
local cookies = { ${cookies} }
local n = 0
request = function()
  n = n + 1
  if #cookies > 0 then wrk.headers["cookie"] = cookies[(n % #cookies) + 1] end
  return wrk.format()
end
`;
}

/**
 * A closed loop by wrk on this process's core (taskset's pinning is inherited), one thread. The
 * generator's CPU share is wrk's, from bash's `time`.
 */
async function runClosedLoop(job: ClosedLoopJob): Promise<LoadResult> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "gearhouse-wrk-"));
  const script = path.join(dir, "job.lua");
  writeFileSync(script, wrkScript(job));
  const wrk = `wrk -t1 -c${job.connections} -d${job.durationSeconds}s --latency -s ${script} ${JSON.stringify(job.url)}`;
  const child = spawn("bash", ["-c", `TIMEFORMAT='cpu %R %U %S'; time ${wrk}`], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  child.stdout.on("data", (chunk: Buffer) => {
    out += chunk.toString();
  });
  child.stderr.on("data", (chunk: Buffer) => {
    err += chunk.toString();
  });
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  rmSync(dir, { recursive: true, force: true });
  if (code !== 0)
    throw new Error(
      code === 127 ? "wrk is not installed (Debian: apt-get install wrk)" : `wrk exited with ${code}: ${err}`,
    );
  const total = /(\d+) requests in ([\d.]+)(s|m)/.exec(out);
  const time = /cpu ([\d.]+) ([\d.]+) ([\d.]+)/.exec(err);
  if (!total || !time) throw new Error(`wrk printed:\n${out}\n${err}`);
  const requests = Number(total[1]);
  const seconds = Number(total[2]) * (total[3] === "m" ? 60 : 1);
  const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0);
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
  const socketErrors = socket ? socket.slice(1).reduce((sum, n) => sum + Number(n), 0) : 0;
  const percentile = (p: string) => wrkMs(new RegExp(`^\\s+${p}%\\s+(\\S+)`, "m").exec(out)?.[1]);
  return {
    requests,
    requestsPerSecond: requests / seconds,
    succeededPerSecond: (requests - non2xx) / seconds,
    p50Ms: percentile("50"),
    p99Ms: percentile("99"),
    maxMs: wrkMs(/Latency\s+\S+\s+\S+\s+(\S+)/.exec(out)?.[1]),
    failures: non2xx + socketErrors,
    cpuShare: (Number(time[2]) + Number(time[3])) / Number(time[1]),
  };
}

/** Each server's windows, in the order of the job's targets. */
async function runInterleaved(job: InterleavedJob): Promise<LoadWindow[][]> {
  const turns = job.targets.map((target) => ({ ...target, windows: [] as LoadWindow[] }));
  const backward = [...turns].reverse();
  for (let w = 0; w < job.windows; w++) {
    for (const turn of w % 2 === 0 ? turns : backward) {
      const before = cpuMs(turn.pid);
      const result = await runClosedLoop(turn.job);
      turn.windows.push({ ...result, serverCpuMs: cpuMs(turn.pid) - before });
    }
  }
  return turns.map((turn) => turn.windows);
}

async function runFixedRate(job: FixedRateJob): Promise<Measured> {
  const { latenciesMs, failures, seconds, generatorStallMs, sliceMaxMs } = await fixedRate(job);
  return { ...summarize(latenciesMs, failures, seconds), generatorStallMs, sliceMaxMs };
}

/**
 * The upload as one multipart request (the image as field `image`, as the shop's pages send it),
 * built once: every upload sends the same bytes, in one write on a keep-alive connection. Built
 * for each upload by fetch and FormData, as before, it cost the client about 8 ms of CPU an upload
 * on the load generators' core, beside the fixed-rate generator, whose lateness counts as the
 * list's latency: the bare node:http server's list p99 then rose 1.6 to 7.7 times beside uploads
 * to a server that only wrote them to a file; with this client, 1.1 to 1.5 times.
 */
function uploadRequest(job: UploadJob): Buffer {
  const url = new URL(job.url);
  const boundary = `gearhouse-bench-${process.pid}`;
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\ncontent-disposition: form-data; name="image"; filename="bench.jpg"\r\n` +
        "content-type: image/jpeg\r\n\r\n",
    ),
    readFileSync(job.imagePath),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const head =
    `POST ${url.pathname} HTTP/1.1\r\nhost: ${url.host}\r\ncookie: ${job.cookie}\r\norigin: ${job.origin}\r\n` +
    `content-type: multipart/form-data; boundary=${boundary}\r\ncontent-length: ${body.length}\r\n\r\n`;
  return Buffer.concat([Buffer.from(head, "latin1"), body]);
}

async function runUploads(job: UploadJob): Promise<Measured> {
  const url = new URL(job.url);
  const request = uploadRequest(job);
  const deadline = Date.now() + job.durationSeconds * 1000;
  const latencies: number[] = [];
  let failures = 0;
  const loop = async () => {
    let connection: Connection | undefined;
    while (Date.now() < deadline) {
      // A connection the server closed (after refusing an upload, say) is replaced.
      if (!connection || connection.socket.destroyed)
        connection = new Connection(url.hostname, Number(url.port || 80), () => {});
      const open = connection;
      const started = performance.now();
      const status = await new Promise<number>((resolve) => open.send(request, resolve));
      latencies.push(performance.now() - started);
      if (status !== 201) failures += 1;
      // No answer at all (the server is gone or refused the connection): counted once, not again
      // in a loop that would only measure how fast this client reconnects.
      if (status === 0) break;
    }
    connection?.socket.destroy();
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: job.concurrency }, loop));
  return summarize(latencies, failures, (performance.now() - started) / 1000);
}

async function main() {
  const job = JSON.parse(process.argv[2] ?? "{}") as LoadJob | InterleavedJob;
  if (job.kind === "closed" || job.kind === "interleaved") {
    const result = job.kind === "closed" ? await runClosedLoop(job) : await runInterleaved(job);
    process.stdout.write(JSON.stringify(result));
    return;
  }
  const wallStart = process.hrtime.bigint();
  const cpuStart = process.cpuUsage();
  const result = job.kind === "uploads" ? await runUploads(job) : await runFixedRate(job);
  const cpu = process.cpuUsage(cpuStart);
  const wallMicros = Number(process.hrtime.bigint() - wallStart) / 1000;
  const output: LoadResult = { ...result, cpuShare: (cpu.user + cpu.system) / wallMicros };
  process.stdout.write(JSON.stringify(output));
}

await main();
