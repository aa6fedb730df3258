import { readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { plantTree } from "./planted-tree.js";
import { type Run, runCommand } from "./run-command.js";

const ROOT = path.resolve(import.meta.dirname, "../../../..");

/**
 * A project outside the repository, checked with the repository's knip.jsonc: an entry (main.ts,
 * as the shop's) that uses one export of a module and not the other, beside a file nothing imports
 * and a dependency nothing uses.
 */
const PLANTED: Record<string, string> = {
  "package.json": `${JSON.stringify({ name: "planted", private: true, type: "module", dependencies: { "left-pad": "1.3.0" } })}\n`,
  "src/server/main.ts": 'import { used } from "./lib/planted.js";\nconsole.log(used);\n',
  "src/server/lib/planted.ts": "export const used = 1;\nexport const plantedUnused = 2;\n",
  "src/server/lib/orphan.ts": "export const orphan = 3;\n",
};

/** `npm run lint:unused` (knip) in `cwd`, with the repository's knip. */
function unusedCheck(cwd: string): Promise<Run> {
  return runCommand(path.join(ROOT, "node_modules/.bin/knip"), ["--no-progress"], {
    cwd,
    env: { ...process.env, NO_COLOR: "1" },
  });
}

describe("the unused code check (npm run lint:unused)", () => {
  let planted = "";
  let run: Run;
  beforeAll(async () => {
    planted = plantTree("gearhouse-unused-", {
      ...PLANTED,
      "knip.jsonc": readFileSync(path.join(ROOT, "knip.jsonc"), "utf8"),
    });
    run = await unusedCheck(planted);
  });
  afterAll(() => rmSync(planted, { recursive: true, force: true }));

  it("fails on a planted unused export, file and dependency, naming each", () => {
    expect(run.code, run.output).not.toBe(0);
    expect(run.output, run.output).toMatch(
      /Unused exports \(1\)\n\s*plantedUnused\s+src\/server\/lib\/planted\.ts/,
    );
    expect(run.output, run.output).toMatch(/Unused files \(1\)\n\s*src\/server\/lib\/orphan\.ts/);
    expect(run.output, run.output).toMatch(/Unused dependencies \(1\)\n\s*left-pad/);
  });

  it("passes on the repository itself", async () => {
    const own = await unusedCheck(ROOT);
    expect(own.code, own.output).toBe(0);
  });
});
