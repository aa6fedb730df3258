import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { onTestFailed } from "vitest";
import { embeddedDatabaseUrls, runningPostmaster } from "../../db/embedded.js";
import { freePort } from "../free-port.js";
import { TEST_DATA_DIR } from "./figures.js";

const REPO_ROOT = path.resolve(import.meta.dirname, "../../../..");
/** Every shop a test starts signs sessions with this secret, so instances accept each other's. */
export const AUTH_SECRET = "reliability-suite-secret-0123456789-abcdef";

export { freePort };

export interface ShopOptions {
  port: number;
  /** Inside the repository (.test-data/…), never under /tmp. */
  dataDir: string;
  /** Variables on top of the defaults below: DATABASE_URL or EMBEDDED_PG_PORT, PUBLIC_URL, … */
  env?: Record<string, string>;
  /**
   * Start the shop through a launcher process, as `npm start` does: `kill()` then kills the
   * launcher alone, and the shop counts as gone once it has closed its output.
   */
  launcher?: boolean;
}

export interface ShopProcess {
  readonly url: string;
  /** Milliseconds from spawning the process to its first 200 from /readyz. */
  readonly startMs: number;
  /** What the process printed, for failure messages and for checking what it did at start. */
  output(): string;
  /** The shop's process id (the launcher's with `launcher`). */
  readonly pid: number;
  /** SIGKILL for the shop process (or its launcher); with `database`, also for its embedded PostgreSQL. */
  kill(options?: { database?: boolean }): Promise<void>;
  /** SIGTERM (or `signal`), then the exit code of the graceful stop (SIGKILL after 60 s). */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

const running = new Set<ChildProcess>();
// A worker that dies mid-test must not leave shops behind.
process.once("exit", () => {
  for (const child of running) child.kill("SIGKILL");
});

/** A launcher that runs the shop as its child with its own output and passes signals on, as npm does. */
const LAUNCHER = `const { spawn } = require("node:child_process");
const shop = spawn(process.execPath, process.argv.slice(1), { stdio: "inherit" });
shop.on("exit", (code) => process.exit(code ?? 1));
for (const s of ["SIGTERM", "SIGINT"]) process.on(s, () => shop.kill(s));`;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Stops a PostgreSQL still running in this shop's data directory (the orphan a SIGKILLed shop
 * leaves), fast shutdown first. Only ever the server of this directory.
 */
export async function stopLeftoverPostgres(dataDir: string): Promise<void> {
  const pgDir = path.join(dataDir, "postgres");
  const pid = runningPostmaster(pgDir);
  if (pid === undefined) return;
  process.kill(pid, "SIGINT");
  const until = Date.now() + 20_000;
  while (runningPostmaster(pgDir) === pid) {
    if (Date.now() > until) {
      process.kill(pid, "SIGKILL");
      return;
    }
    await sleep(50);
  }
}

/**
 * Starts `node --import tsx src/server/main.ts` as its own process, the way the shop runs in
 * production, and resolves once /readyz answers 200.
 */
export async function startShop(options: ShopOptions): Promise<ShopProcess> {
  const started = performance.now();
  const url = `http://127.0.0.1:${options.port}`;
  const printed: string[] = [];
  const shopArgs = ["--import", "tsx", "src/server/main.ts"];
  const args = options.launcher ? ["-e", LAUNCHER, "--", ...shopArgs] : shopArgs;
  const child = spawn(process.execPath, args, {
    cwd: REPO_ROOT,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      ...process.env,
      NODE_ENV: "test",
      HOST: "127.0.0.1",
      PORT: String(options.port),
      PUBLIC_URL: url,
      DATA_DIR: options.dataDir,
      STATIC_DIR: path.join(options.dataDir, "no-client"),
      AUTH_SECRET,
      // A developer's own settings must not leak into the shop under test.
      DATABASE_URL: "",
      SMTP_URL: "",
      STRIPE_SECRET_KEY: "",
      STRIPE_PUBLISHABLE_KEY: "",
      GOOGLE_CLIENT_ID: "",
      ADMIN_EMAILS: "",
      SEED_DEMO: "false",
      LOG_LEVEL: "warn",
      // Every test customer signs up from 127.0.0.1.
      AUTH_RATE_LIMIT_PER_MINUTE: "100000",
      // Test customers book many orders each: the cap on unpaid orders is lifted, as in
      // test/app.ts, unless a test sets it.
      ORDER_MAX_UNPAID: "1000000",
      ORDER_MAX_UNPAID_UNITS: "1000000000",
      ORDER_MAX_SHARE_PERCENT: "100",
      // Every test customer books from 127.0.0.1, many times an hour.
      BOOKING_LIMIT_PER_HOUR: "1000000000",
      BOOKING_LIMIT_PER_ADDRESS_PER_HOUR: "0",
      ...options.env,
    },
  });
  running.add(child);
  // "close": the process has exited and closed its output, a launcher's shop included.
  const exited = new Promise<number | null>((resolve) =>
    child.once("close", (code) => {
      running.delete(child);
      resolve(code);
    }),
  );
  const keep = (chunk: Buffer) => {
    printed.push(chunk.toString("utf8"));
    if (printed.length > 400) printed.shift();
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  const output = () => printed.join("");
  let gone = false;
  void exited.then(() => {
    gone = true;
  });

  const kill = async ({ database = false } = {}) => {
    const postmaster = database ? runningPostmaster(path.join(options.dataDir, "postgres")) : undefined;
    child.kill("SIGKILL");
    if (postmaster !== undefined) process.kill(postmaster, "SIGKILL");
    await exited;
  };

  const until = Date.now() + 120_000;
  for (;;) {
    if (gone) throw new Error(`The shop exited while starting (code ${await exited}):\n${output()}`);
    if (Date.now() > until) {
      await kill();
      throw new Error(`The shop was not ready within 120 s:\n${output()}`);
    }
    try {
      const res = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(2_000) });
      if (res.status === 200) break;
    } catch {
      // Not listening yet.
    }
    await sleep(100);
  }

  return {
    url,
    pid: child.pid ?? 0,
    startMs: Math.round(performance.now() - started),
    output,
    kill,
    async stop(signal: NodeJS.Signals = "SIGTERM") {
      if (gone) return exited;
      child.kill(signal);
      // A safety net for a stop that hangs, not a budget: the shop's own limit is 10 s.
      const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
}

/**
 * The ports and data directory of a shop that runs its own embedded PostgreSQL (`start`), or one the
 * test starts in `pgDir` on `pgPort`: free ports, and a folder `name-port` under .test-data.
 */
export async function shopPlace(name: string) {
  const port = await freePort();
  const pgPort = await freePort();
  const dataDir = path.join(TEST_DATA_DIR, `${name}-${port}`);
  return {
    port,
    pgPort,
    dataDir,
    pgDir: path.join(dataDir, "postgres"),
    /**
     * The embedded PostgreSQL's database as the shop's role, as the shop makes it: read once the
     * shop (or startEmbeddedPostgres) has started it, when its passwords exist.
     */
    get databaseUrl(): string {
      const urls = embeddedDatabaseUrls(path.join(dataDir, "postgres"), pgPort);
      if (!urls) throw new Error(`The embedded PostgreSQL in ${dataDir} was never started.`);
      return urls.url;
    },
    /** The shop with its embedded PostgreSQL on `pgPort`; `env` on top. */
    start: (options: { env?: Record<string, string>; launcher?: boolean } = {}) =>
      startShop({
        port,
        dataDir,
        env: { EMBEDDED_PG_PORT: String(pgPort), ...options.env },
        launcher: options.launcher,
      }),
  };
}

/** Call in a test: if it fails, what the shops printed (their logs explain a 5xx) goes to the output. */
export function showOutputOnFailure(shops: () => (ShopProcess | undefined)[]) {
  onTestFailed(() => {
    for (const shop of shops()) if (shop) console.log(`Output of the shop at ${shop.url}:\n${shop.output()}`);
  });
}
