import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../../../..");

it("builds the client for production even with NODE_ENV=development in the environment", () => {
  const outDir = mkdtempSync(path.join(os.tmpdir(), "gearhouse-build-"));
  try {
    const run = spawnSync(
      path.join(ROOT, "node_modules/.bin/vite"),
      ["build", "--outDir", outDir, "--emptyOutDir"],
      {
        cwd: ROOT,
        env: { ...process.env, NODE_ENV: "development" },
        encoding: "utf8",
      },
    );
    expect(run.status, run.stderr).toBe(0);
    const assets = path.join(outDir, "assets");
    const scripts = readdirSync(assets).filter((file) => file.endsWith(".js"));
    expect(scripts.length).toBeGreaterThan(5);
    // React's development runtime: jsxDEV calls, with the source paths of every element.
    const development = scripts.filter((file) =>
      readFileSync(path.join(assets, file), "utf8").includes("jsxDEV"),
    );
    expect(development).toEqual([]);
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}, 300_000);
