#!/usr/bin/env node
/**
 * Completes package-lock.json with the other platforms' optional native packages (Biome's CLI,
 * Tailwind's oxide) that npm leaves out when its registry does not serve them, so that `npm ci`
 * accepts the lock file on any machine. Each added entry carries the version its parent asks for
 * and the platform it is for (os, cpu, libc), so npm skips it everywhere else; where the registry
 * has it, npm fetches it by version. Run after every `npm install` that changes the lock file.
 */
import { readFileSync, writeFileSync } from "node:fs";

const LOCK = new URL("../package-lock.json", import.meta.url);
const lock = JSON.parse(readFileSync(LOCK, "utf8"));
const packages = lock.packages;

/** `@biomejs/cli-linux-arm64-musl` → { os: linux, cpu: arm64, libc: musl }. */
function platformOf(name) {
  const parts = name.split("/").pop().split("-");
  const os = parts.find((p) => ["android", "darwin", "linux", "win32", "freebsd", "openharmony"].includes(p));
  const cpu = parts.find((p) =>
    ["arm64", "x64", "arm", "ia32", "wasm32", "ppc64", "riscv64", "s390x", "loong64"].includes(p),
  );
  if (!cpu) return undefined;
  const entry = { cpu: [cpu] };
  if (os) entry.os = [os];
  // `musl`, or an ABI name that starts with it (`linux-arm-musleabihf`).
  if (os === "linux") entry.libc = [parts.some((p) => p.startsWith("musl")) ? "musl" : "glibc"];
  return entry;
}

let added = 0;
for (const [path, pkg] of Object.entries(packages)) {
  for (const [name, version] of Object.entries(pkg.optionalDependencies ?? {})) {
    const key = `node_modules/${name}`;
    if (packages[key] || packages[`${path}/${key}`]) continue;
    const platform = platformOf(name);
    if (!platform) continue;
    packages[key] = { version, ...platform, ...(pkg.dev ? { dev: true } : {}), optional: true };
    added++;
  }
}
lock.packages = Object.fromEntries(
  Object.entries(packages).sort(([a], [b]) => (a === "" ? -1 : b === "" ? 1 : a.localeCompare(b))),
);
writeFileSync(LOCK, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`complete-lock: ${added} optional platform package(s) added`);
