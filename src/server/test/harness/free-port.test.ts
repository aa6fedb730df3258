import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { freePort, PORT_CLAIMS } from "../free-port.js";

const ephemeralLow = Number(readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").split(/\s+/)[0]);

/** Another test process: claims `count` ports, prints them, and holds them until its input ends. */
function otherProcess(count: number) {
  const child = spawn(
    process.execPath,
    [
      "--import",
      "tsx",
      "--input-type=module",
      "-e",
      `import { freePort } from ${JSON.stringify(path.resolve(import.meta.dirname, "../free-port.ts"))};
       const ports = [];
       for (let i = 0; i < ${count}; i += 1) ports.push(await freePort());
       process.stdout.write(ports.join(",") + "\\n");
       process.stdin.resume();
       process.stdin.on("end", () => process.exit(0));`,
    ],
    { stdio: ["pipe", "pipe", "inherit"] },
  );
  const ports = new Promise<number[]>((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (c: Buffer) => {
      out += c.toString();
      if (out.endsWith("\n")) resolve(out.trim().split(",").map(Number));
    });
    child.once("exit", (code) => reject(new Error(`the other process exited (${code}) before its ports`)));
  });
  const exited = new Promise((r) => child.once("exit", r));
  const end = () => {
    child.stdin.end();
    return exited;
  };
  return { ports, end };
}

describe("freePort", () => {
  it("hands out ports below the ephemeral range, which outgoing connections are never given", async () => {
    const ports = await Promise.all(Array.from({ length: 20 }, () => freePort()));
    expect(new Set(ports).size).toBe(20);
    for (const port of ports) {
      expect(port).toBeGreaterThanOrEqual(10_000);
      expect(port).toBeLessThan(ephemeralLow);
    }
  });

  it("never hands another living process a port it holds, and lets its claims go when it exits", async () => {
    const other = otherProcess(300);
    const theirs = await other.ports;
    const ours = await Promise.all(Array.from({ length: 300 }, () => freePort()));
    expect(ours.filter((p) => theirs.includes(p))).toEqual([]);
    for (const port of theirs) expect(existsSync(path.join(PORT_CLAIMS, String(port)))).toBe(true);
    await other.end();
    expect(theirs.filter((p) => existsSync(path.join(PORT_CLAIMS, String(p))))).toEqual([]);
  });

  it("sweeps away the claims of processes that ended without releasing them", async () => {
    const ended = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"]);
    const deadPid = Number(ended.stdout.toString());
    mkdirSync(PORT_CLAIMS, { recursive: true });
    const leftover = path.join(PORT_CLAIMS, `leftover-of-${deadPid}`);
    writeFileSync(leftover, String(deadPid));
    const other = otherProcess(1);
    await other.ports;
    expect(existsSync(leftover)).toBe(false);
    await other.end();
  });
});
