// The calibration line printed with every `npm run bench` (issue 30): what this machine itself
// does, measured the same way everywhere, so that figures from two machines can be compared: the
// bare node:http server's requests a second (the same reference the throughput ratio divides by),
// a fixed CPU task on the server's core, and how many 8 KiB writes a second the disk makes durable
// with fdatasync (what PostgreSQL waits for at each commit; pg_test_fsync's "fdatasync" line).
import { closeSync, fdatasyncSync, openSync, rmSync, writeSync } from "node:fs";
import path from "node:path";
import type { ClosedLoopJob } from "./load.js";
import { type CpuPlan, runLoad, spawnNode } from "./processes.js";

export interface Calibration {
  /** The bare node:http server, closed loop: requests a second. */
  bareRps: number;
  /** The fixed CPU task on the server's core: best of three, milliseconds. */
  cpuTaskMs: number;
  /** 8 KiB written and fdatasync'ed at one offset of a file beside the database: a second. */
  fdatasyncPerSecond: number;
}

const BARE_SECONDS = 3;
const FSYNC_SECONDS = 2;

// Integer arithmetic, string building, hashing and JSON: the kinds of work a request does, and no
// allocation large enough to depend on the heap's settings. The same amount of work everywhere.
const CPU_TASK = `
const { createHash } = require("node:crypto");
function task() {
  let x = 2463534242;
  for (let i = 0; i < 20_000_000; i++) { x ^= x << 13; x ^= x >>> 17; x ^= x << 5; x >>>= 0; }
  const rows = Array.from({ length: 2_000 }, (_, i) => ({ id: i, name: "Product " + i, price: i * 3, x }));
  let hash = "";
  for (let i = 0; i < 40; i++) hash = createHash("sha256").update(JSON.stringify(rows) + hash).digest("hex");
  return JSON.parse(JSON.stringify(rows)).length + hash.length;
}
let best = Infinity;
for (let run = 0; run < 3; run++) {
  const start = process.hrtime.bigint();
  task();
  best = Math.min(best, Number(process.hrtime.bigint() - start) / 1e6);
}
process.stdout.write(String(best));
`;

async function cpuTaskMs(plan: CpuPlan): Promise<number> {
  const child = spawnNode(plan.server, ["-e", CPU_TASK]);
  let out = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    out += chunk.toString();
  });
  const code = await new Promise<number | null>((r) => child.once("exit", r));
  if (code !== 0) throw new Error(`the CPU task exited with ${code}`);
  return Number(out);
}

function fdatasyncPerSecond(dir: string): number {
  const file = path.join(dir, "calibration-fsync");
  const block = Buffer.alloc(8192, 7);
  const fd = openSync(file, "w");
  try {
    let writes = 0;
    const start = performance.now();
    while (performance.now() - start < FSYNC_SECONDS * 1000) {
      writeSync(fd, block, 0, block.length, 0);
      fdatasyncSync(fd);
      writes += 1;
    }
    return writes / ((performance.now() - start) / 1000);
  } finally {
    closeSync(fd);
    rmSync(file, { force: true });
  }
}

/** Measures the three figures; `bareUrl` is the bare server, already up; `dir` is on the database's disk. */
export async function calibrate(plan: CpuPlan, bareUrl: string, dir: string): Promise<Calibration> {
  const job = (durationSeconds: number): ClosedLoopJob => ({
    kind: "closed",
    url: bareUrl,
    connections: 50,
    durationSeconds,
  });
  await runLoad(plan, job(1));
  const bare = await runLoad(plan, job(BARE_SECONDS));
  return {
    bareRps: Math.round(bare.requestsPerSecond),
    cpuTaskMs: Math.round(await cpuTaskMs(plan)),
    fdatasyncPerSecond: Math.round(fdatasyncPerSecond(dir)),
  };
}

export const calibrationLine = (c: Calibration) =>
  `calibration: bare node:http ${c.bareRps.toLocaleString("en-US")} req/s; CPU task ${c.cpuTaskMs} ms; ` +
  `fdatasync of 8 KiB ${c.fdatasyncPerSecond.toLocaleString("en-US")}/s`;
