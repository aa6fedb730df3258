import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { removeStaleSocketLock } from "./embedded.js";

/** A socket directory holding the lock PostgreSQL writes for `port`: pid, then data directory. */
function socketDirWithLock(port: number, pid: number, dataDir: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), "gearhouse-socket-"));
  writeFileSync(path.join(dir, `.s.PGSQL.${port}.lock`), `${pid}\n${dataDir}\n1795430000\n${port}\n`);
  writeFileSync(path.join(dir, `.s.PGSQL.${port}`), "");
  return dir;
}

/** The pid of a process that has exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"]);
  return Number(child.stdout.toString());
}

describe("a socket lock left by a killed PostgreSQL", () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "gearhouse-data-"));
  const logged: string[] = [];
  const log = (msg: string) => logged.push(msg);

  it("is removed, with its socket, when its server is gone", () => {
    const dir = socketDirWithLock(54999, deadPid(), dataDir);
    removeStaleSocketLock(dataDir, 54999, log, dir);
    expect(existsSync(path.join(dir, ".s.PGSQL.54999.lock"))).toBe(false);
    expect(existsSync(path.join(dir, ".s.PGSQL.54999"))).toBe(false);
    expect(logged.at(-1)).toContain("stale socket lock");
  });

  it("is kept while the process it names runs", () => {
    const dir = socketDirWithLock(54999, process.pid, dataDir);
    removeStaleSocketLock(dataDir, 54999, log, dir);
    expect(existsSync(path.join(dir, ".s.PGSQL.54999.lock"))).toBe(true);
  });

  it("is kept when it belongs to another data directory", () => {
    const dir = socketDirWithLock(54999, deadPid(), path.join(dataDir, "other"));
    removeStaleSocketLock(dataDir, 54999, log, dir);
    expect(existsSync(path.join(dir, ".s.PGSQL.54999.lock"))).toBe(true);
  });
});
