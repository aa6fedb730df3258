// Processes of the benchmark: the shop and the bare server on the server's cores, each load
// generator on a core of its own, when `taskset` and a second core are there.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { readFileSync, readlinkSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { InterleavedJob, LoadJob, LoadResult, LoadWindow } from "./load.js";

export const ROOT = path.resolve(import.meta.dirname, "..");

export interface CpuPlan {
  /** `taskset -c` lists, or undefined when the processes cannot be pinned. */
  server?: string;
  load?: string;
  /** Every core: where PostgreSQL may run once it is up. */
  all?: string;
  description: string;
}

function hasTaskset(): boolean {
  try {
    execFileSync("sh", ["-c", "command -v taskset"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

/**
 * The last core for the load generator, the others for the shop's node process. PostgreSQL, which
 * in production would have a machine of its own, may run on any core (see unpinPostgres): pinned
 * beside node it would take the server's core whenever the load does not need it. On one core, or
 * without taskset, everything shares.
 */
export function planCpus(): CpuPlan {
  const cores = os.availableParallelism();
  if (cores < 2) return { description: "1 core: server and load generator share it" };
  if (!hasTaskset()) return { description: `${cores} cores, no taskset: not pinned` };
  const last = cores - 1;
  const server = last === 1 ? "0" : `0-${last - 1}`;
  return {
    server,
    load: String(last),
    all: `0-${last}`,
    description: `taskset: server on CPU ${server}, load generator on CPU ${last}, PostgreSQL on any`,
  };
}

/**
 * Lets the embedded PostgreSQL of `pgDataDir` run on every core: it inherits the server's pinning
 * when the server starts it. The postmaster first, so the backends it forks from now on follow.
 */
export function unpinPostgres(plan: CpuPlan, pgDataDir: string): void {
  if (!plan.all) return;
  const postmaster = readFileSync(path.join(pgDataDir, "postmaster.pid"), "utf8").split("\n")[0] ?? "";
  const children = readFileSync(`/proc/${postmaster}/task/${postmaster}/children`, "utf8").trim();
  for (const pid of [postmaster, ...children.split(/\s+/).filter(Boolean)]) {
    execFileSync("taskset", ["-a", "-p", "-c", plan.all, pid], { stdio: "ignore" });
  }
}

/**
 * The node flags `npm start` gives the server (package.json: --single-threaded-gc and the heap's
 * growth), so that the benchmarks run it, and the bare reference server, the same way.
 */
export function startFlags(): string[] {
  const { scripts } = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8"));
  const words = String(scripts.start).split(" ");
  return words.slice(1, words.indexOf("scripts/start.mjs")).filter((w) => w.startsWith("--"));
}

/** Spawns `node args…`, pinned to `cpus` when given (taskset execs node, so the pid is node's). */
export function spawnNode(
  cpus: string | undefined,
  args: string[],
  options: { env?: NodeJS.ProcessEnv; stdout?: "pipe" | "inherit" | "ignore" } = {},
): ChildProcess {
  const command = cpus ? "taskset" : process.execPath;
  const argv = cpus ? ["-c", cpus, process.execPath, ...args] : args;
  return spawn(command, argv, {
    cwd: ROOT,
    env: options.env ?? process.env,
    stdio: ["ignore", options.stdout ?? "pipe", "inherit"],
  });
}

/** Polls `url` until it answers 200; returns the milliseconds it took. */
export async function waitForOk(url: string, child: ChildProcess, timeoutMs = 60_000): Promise<number> {
  const started = performance.now();
  while (performance.now() - started < timeoutMs) {
    if (child.exitCode !== null)
      throw new Error(`process exited with ${child.exitCode} before ${url} was up`);
    try {
      if ((await fetch(url)).ok) return performance.now() - started;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}

/** SIGTERM, and SIGKILL if the process is still there after `graceMs`. */
export async function stopProcess(child: ChildProcess, graceMs = 15_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once("exit", r));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
  await exited;
  clearTimeout(timer);
}

function vmRss(pid: number | string): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = /^VmRSS:\s+(\d+) kB/m.exec(status)?.[1];
  if (!kb) throw new Error(`no VmRSS for ${pid}`);
  return Number(kb) * 1024;
}

/**
 * Resident memory of the shop's node processes, in bytes, from /proc: the server and its node
 * children (the image worker, while it runs), not the PostgreSQL it started.
 */
export function serverResidentBytes(pid: number): number {
  const children = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").split(/\s+/).filter(Boolean);
  const nodeChildren = children.filter((child) => {
    try {
      return path.basename(readlinkSync(`/proc/${child}/exe`)).startsWith("node");
    } catch {
      return false;
    }
  });
  return [pid, ...nodeChildren].reduce((sum: number, p) => sum + vmRss(p), 0);
}

/** A started child's pid, which every /proc reading needs: a child without one never started. */
export function pidOf(child: ChildProcess): number {
  if (child.pid === undefined) throw new Error(`${child.spawnfile} did not start: it has no pid`);
  return child.pid;
}

/** /proc/stat counts CPU time in USER_HZ ticks, which Linux fixes at 100 a second. */
const MS_PER_TICK = 10;

/**
 * CPU time a process has used so far (user and system), in ms, from /proc/PID/stat: a server's
 * own cost per answer, whatever else the machine runs meanwhile.
 */
export function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  // The fields after the command name, which is in parentheses and may hold spaces.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) * MS_PER_TICK;
}

/** CPU time the host has taken from this machine so far (steal, every CPU), in ms; 0 where unknown. */
function stolenMs(): number {
  try {
    const total = readFileSync("/proc/stat", "utf8").split("\n")[0]?.trim().split(/\s+/);
    return Number(total?.[8]) * MS_PER_TICK || 0;
  } catch {
    return 0;
  }
}

/** Runs one load job in a fresh generator process on the load core. */
export async function runLoad(plan: CpuPlan, job: LoadJob): Promise<LoadResult> {
  const stolenBefore = stolenMs();
  const result = (await generate(plan, job)) as LoadResult;
  return { ...result, stealMs: Math.round(stolenMs() - stolenBefore) };
}

/** Runs an interleaved job in one generator process: each target's windows, in the targets' order. */
export async function runInterleaved(plan: CpuPlan, job: InterleavedJob): Promise<LoadWindow[][]> {
  return (await generate(plan, job)) as LoadWindow[][];
}

/** A generator process on the load core for one job; what it prints, parsed. */
async function generate(plan: CpuPlan, job: LoadJob | InterleavedJob): Promise<unknown> {
  const child = spawnNode(plan.load, [
    "--import",
    "tsx",
    path.join(ROOT, "bench/load.ts"),
    JSON.stringify(job),
  ]);
  let out = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    out += chunk.toString();
  });
  const code = await new Promise<number | null>((r) => child.once("exit", r));
  if (code !== 0) throw new Error(`load generator exited with ${code}`);
  return JSON.parse(out);
}
