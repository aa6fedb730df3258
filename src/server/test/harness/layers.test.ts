import { readFileSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { plantTree } from "./planted-tree.js";
import { type Run, runCommand } from "./run-command.js";

const ROOT = path.resolve(import.meta.dirname, "../../../..");

/**
 * A source tree outside the repository with one violation of each rule of .dependency-cruiser.cjs,
 * beside imports the rules allow. Paths are as the check sees them (relative to where it runs).
 */
const PLANTED: Record<string, string> = {
  "src/server/features/orders/service.ts": "export const order = { id: 1 };\n",
  "src/server/features/orders/index.ts": 'export { order } from "./service.js";\n',
  "src/server/plugins/planted.ts": 'export { order } from "../features/orders/service.js";\n',
  // Allowed: a plugin's test builds the whole app.
  "src/server/plugins/planted.test.ts": 'export { order } from "../features/orders/service.js";\n',
  "src/server/features/payments/planted.ts": 'export { order } from "../orders/service.js";\n',
  // Allowed: through the public module.
  "src/server/features/payments/allowed.ts": 'export { order } from "../orders/index.js";\n',
  "src/server/lib/planted.ts": 'export { order } from "../features/orders/index.js";\n',
  "src/server/lib/cycle-a.ts": 'import type { B } from "./cycle-b.js";\nexport type A = { b?: B };\n',
  "src/server/lib/cycle-b.ts": 'import type { A } from "./cycle-a.js";\nexport type B = { a?: A };\n',
  "src/server/lib/unresolved.ts": 'export { gone } from "./no-such-module.js";\n',
  "src/shared/planted.ts":
    'import type { order } from "../server/features/orders/service.js";\nexport type O = typeof order;\n',
  "src/client/app/router.tsx": "export const routes = [];\n",
  "src/client/features/orders/thumbnail.tsx": 'export const Thumbnail = () => <img alt="" />;\n',
  "src/client/features/admin/planted.tsx":
    'import { Thumbnail } from "../orders/thumbnail.js";\nexport const Row = () => <Thumbnail />;\n',
  "src/client/features/orders/planted.ts": 'export { routes } from "../../app/router.js";\n',
  "src/client/components/planted.ts": 'export { Thumbnail } from "../features/orders/thumbnail.js";\n',
  "src/client/lib/planted.ts": 'export { order } from "../../server/features/orders/index.js";\n',
};

/** Each rule and the planted file that breaks it. */
const VIOLATIONS: [rule: string, from: string][] = [
  ["server-plugins-import-no-feature", "src/server/plugins/planted.ts"],
  ["server-features-meet-through-index", "src/server/features/payments/planted.ts"],
  ["server-lib-imports-no-plugin-or-feature", "src/server/lib/planted.ts"],
  ["no-cycles", "src/server/lib/cycle-a.ts"],
  ["imports-resolve", "src/server/lib/unresolved.ts"],
  ["shared-imports-neither-side", "src/shared/planted.ts"],
  ["client-features-import-no-feature", "src/client/features/admin/planted.tsx"],
  ["client-features-import-no-app", "src/client/features/orders/planted.ts"],
  ["client-shared-code-imports-no-feature", "src/client/components/planted.ts"],
  ["client-and-server-meet-in-shared", "src/client/lib/planted.ts"],
];

/** `npm run lint:layers` as package.json has it, run in `cwd`; its files are the repository's. */
function layerCheck(cwd: string): Promise<Run> {
  const script: string = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")).scripts[
    "lint:layers"
  ];
  const [command = "", ...args] = script.split(" ").map((word) => {
    const file = path.join(ROOT, word);
    return statSync(file, { throwIfNoEntry: false })?.isFile() ? file : word;
  });
  return runCommand(command, args, { cwd, env: { ...process.env, NO_COLOR: "1" } });
}

describe("the layer check (npm run lint:layers)", () => {
  let planted = "";
  let run: Run;
  beforeAll(async () => {
    planted = plantTree("gearhouse-layers-", PLANTED);
    run = await layerCheck(planted);
  });
  afterAll(() => rmSync(planted, { recursive: true, force: true }));

  it("fails on a planted violation of each rule, naming the rule and the importing file", () => {
    expect(run.code, run.output).not.toBe(0);
    for (const [rule, from] of VIOLATIONS) {
      expect(run.output, run.output).toContain(`error ${rule}: ${from} →`);
    }
    expect(run.output, run.output).toMatch(
      new RegExp(`${VIOLATIONS.length} dependency violations \\(${VIOLATIONS.length} errors`),
    );
  });

  it("lets the planted imports the rules allow pass", () => {
    expect(run.output).not.toContain("payments/allowed.ts");
    expect(run.output).not.toContain("planted.test.ts");
  });

  it("passes on the repository's own src", async () => {
    const own = await layerCheck(ROOT);
    expect(own.output, own.output).toContain("no dependency violations found");
    expect(own.code, own.output).toBe(0);
  });
});
