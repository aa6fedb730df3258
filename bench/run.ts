// `npm run bench`: throughput of GET /api/products against a bare node:http server sending the
// same bytes, measured side by side in one run (warm-up first, interleaved runs, medians).
import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import autocannon from "autocannon";

const ROOT = path.resolve(import.meta.dirname, "..");
const APP_PORT = 3210;
const BARE_PORT = 3211;
const DURATION_S = Number(process.env.BENCH_DURATION ?? 8);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = 50;

async function waitFor(url: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} did not become ready`);
}

function startApp(dataDir: string): ChildProcess {
  return spawn(process.execPath, [path.join(ROOT, "dist/server/main.js")], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: "development",
      PORT: String(APP_PORT),
      DATA_DIR: dataDir,
      EMBEDDED_PG_PORT: "54390",
      LOG_LEVEL: "warn",
    },
    stdio: ["ignore", "inherit", "inherit"],
  });
}

async function startBare(body: Buffer, headers: Record<string, string>): Promise<http.Server> {
  const server = http.createServer((_req, res) => {
    res.writeHead(200, headers);
    res.end(body);
  });
  await new Promise<void>((r) => server.listen(BARE_PORT, "127.0.0.1", r));
  return server;
}

async function load(url: string, duration: number): Promise<{ rps: number; p99: number; errors: number }> {
  const result = await autocannon({ url, connections: CONNECTIONS, duration, pipelining: 1 });
  return { rps: result.requests.average, p99: result.latency.p99, errors: result.errors + result.non2xx };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? 0;
};

async function main() {
  // Inside the project: PostgreSQL runs as its own system user when started by root, and a private
  // temporary directory would be closed to it.
  const dataDir = path.join(ROOT, ".bench-data");
  rmSync(dataDir, { recursive: true, force: true });
  const app = startApp(dataDir);
  let bare: http.Server | undefined;
  try {
    const appUrl = `http://127.0.0.1:${APP_PORT}/api/products`;
    await waitFor(`http://127.0.0.1:${APP_PORT}/readyz`);
    const sample = await fetch(appUrl);
    const body = Buffer.from(await sample.arrayBuffer());
    bare = await startBare(body, {
      "content-type": sample.headers.get("content-type") ?? "application/json",
    });
    const bareUrl = `http://127.0.0.1:${BARE_PORT}/api/products`;

    await load(appUrl, 3);
    await load(bareUrl, 3);
    const runs = { bare: [] as number[], app: [] as number[], appP99: [] as number[], errors: 0 };
    for (let i = 0; i < ROUNDS; i++) {
      const b = await load(bareUrl, DURATION_S);
      const a = await load(appUrl, DURATION_S);
      runs.bare.push(b.rps);
      runs.app.push(a.rps);
      runs.appP99.push(a.p99);
      runs.errors += a.errors + b.errors;
    }
    const ratio = median(runs.app) / median(runs.bare);
    const rows = [
      {
        figure: "bare node:http req/s (median)",
        value: Math.round(median(runs.bare)),
        budget: "-",
        pass: "-",
      },
      {
        figure: "GET /api/products req/s (median)",
        value: Math.round(median(runs.app)),
        budget: "-",
        pass: "-",
      },
      {
        figure: "P1 throughput ratio app/bare",
        value: Number(ratio.toFixed(3)),
        budget: ">= 0.6",
        pass: ratio >= 0.6 ? "pass" : "FAIL",
      },
      { figure: "GET /api/products p99 ms (median)", value: median(runs.appP99), budget: "-", pass: "-" },
      {
        figure: "errors and non-2xx",
        value: runs.errors,
        budget: "0",
        pass: runs.errors === 0 ? "pass" : "FAIL",
      },
    ];
    console.table(rows);
    const outDir = path.join(ROOT, "bench/results");
    mkdirSync(outDir, { recursive: true });
    writeFileSync(
      path.join(outDir, `bench-${new Date().toISOString().replace(/[:.]/g, "-")}.json`),
      JSON.stringify(
        {
          date: new Date().toISOString(),
          bodyBytes: body.length,
          connections: CONNECTIONS,
          durationSeconds: DURATION_S,
          rounds: ROUNDS,
          runs,
          rows,
        },
        null,
        2,
      ),
    );
  } finally {
    bare?.close();
    app.kill("SIGTERM");
    await new Promise((r) => app.once("exit", r));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
