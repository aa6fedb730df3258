import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";

/**
 * Ports for the tests' servers (PostgreSQL, shops, HAProxy), chosen below the system's ephemeral
 * range. The kernel gives ports of that range to outgoing connections, and a port handed out from
 * it stays free for anyone until its server binds it, and again each time that server restarts:
 * in CI (stop 25) HAProxy's port was taken in that window while other tests were making thousands
 * of connections, and HAProxy never started. No outgoing connection is ever given a port below the
 * range.
 *
 * Outside the range the kernel does not keep two processes from choosing the same port, so each
 * port is claimed with a lock file that names the claiming process: Vitest's workers, the run's
 * main process and other runs on the machine see each other's claims. A claim ends when its
 * process exits; those of processes that ended without a word (Vitest ends its workers with a
 * signal) are swept away by the next process that asks for a port.
 */
export const PORT_CLAIMS = path.join(os.tmpdir(), "gearhouse-test-ports");
const LOWEST = 10_000;
const claimed: string[] = [];

function ephemeralStart(): number {
  try {
    const low = Number(readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").split(/\s+/)[0]);
    if (low > LOWEST + 1000) return low;
  } catch {
    // Not Linux: the common default below.
  }
  return 32_768;
}
const HIGHEST = ephemeralStart() - 1;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** The pid a claim names: 0 while it is being written, undefined once it is gone. */
function holderOf(file: string): number | undefined {
  try {
    return Number(readFileSync(file, "utf8"));
  } catch {
    return undefined;
  }
}

/** Whether a claim's holder has ended (a claim being written has no holder yet, and stays). */
const ended = (holder: number | undefined) => holder !== undefined && holder !== 0 && !alive(holder);

/** Claims `port` for this process unless a living process holds it. */
function claim(port: number): boolean {
  const file = path.join(PORT_CLAIMS, String(port));
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      writeFileSync(file, String(process.pid), { flag: "wx" });
      if (claimed.length === 0) process.once("exit", release);
      claimed.push(file);
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const holder = holderOf(file);
      // Held by a living process, or being written: not this port.
      if (holder !== undefined && !ended(holder)) return false;
      // Released meanwhile, or left by a process that has ended: tried again. Two processes taking
      // over the same stale claim at the same moment could both win; that needs a leftover and a
      // coincidence.
      if (holder !== undefined) rmSync(file, { force: true });
    }
  }
  return false;
}

function release() {
  for (const file of claimed.splice(0)) rmSync(file, { force: true });
}

/** Whether nothing listens on `port` now. */
function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });
}

let swept = false;

/** Removes the claims of processes that have ended. */
function sweep() {
  mkdirSync(PORT_CLAIMS, { recursive: true });
  for (const name of readdirSync(PORT_CLAIMS)) {
    const file = path.join(PORT_CLAIMS, name);
    if (ended(holderOf(file))) rmSync(file, { force: true });
  }
}

/** A port nothing listens on, that no other living test process has, and that stays this process's. */
export async function freePort(): Promise<number> {
  if (!swept) {
    swept = true;
    sweep();
  }
  const span = HIGHEST - LOWEST + 1;
  const start = Math.floor(Math.random() * span);
  for (let i = 0; i < span; i += 1) {
    const port = LOWEST + ((start + i) % span);
    if (!claim(port)) continue;
    if (await bindable(port)) return port;
    // Something outside the tests listens there: the claim is kept, so no one tries it again.
  }
  throw new Error(`No free port between ${LOWEST} and ${HIGHEST} (claims in ${PORT_CLAIMS})`);
}
