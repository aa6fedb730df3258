import path from "node:path";
import { describe, expect, it } from "vitest";
import { type Run, runCommand } from "./run-command.js";

const ROOT = path.resolve(import.meta.dirname, "../../../..");

/**
 * Runs one of the project's test commands in a child process, on the test that fails on purpose
 * (GEARHOUSE_PLANTED_FAILURE=1 adds it to every configuration), with the environment of a
 * developer's shell: none of this run's own Vitest variables.
 */
function runPlanted(command: string, args: string[]): Promise<Run> {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!key.startsWith("VITEST") && key !== "NODE_ENV" && key !== "TEST") env[key] = value;
  }
  env.GEARHOUSE_PLANTED_FAILURE = "1";
  env.NO_COLOR = "1";
  delete env.FORCE_COLOR;
  env.CI = "1";
  return runCommand(command, args, { cwd: ROOT, env });
}

const bin = (name: string) => path.join(ROOT, "node_modules/.bin", name);

// Each run starts its own database (the configuration's global set-up): minutes on a busy machine
// are a safety net, not a budget.
const RUN_LIMIT_MS = 300_000;

/** A test that runs `command` on the planted failure: its output shows `shown`, and it exits non-zero. */
const failsOnThePlantedTest =
  (command: string, args: string[], ...shown: RegExp[]) =>
  async () => {
    const run = await runPlanted(command, args);
    for (const pattern of shown) expect(run.output, run.output).toMatch(pattern);
    expect(run.code, run.output).not.toBe(0);
  };

describe("a failing test fails the command that ran it", () => {
  it(
    "npm run test:unit (Vitest with the database set-up) exits non-zero",
    failsOnThePlantedTest("npm", ["run", "test:unit", "--", "planted-failure"], /1 failed/),
    RUN_LIMIT_MS,
  );

  it(
    "a test that times out is stopped: the requests it goes on sending are refused, the next test passes",
    failsOnThePlantedTest(
      bin("vitest"),
      ["run", "timed-out"],
      /Test timed out in 500ms/,
      /1 failed \| 1 passed/,
    ),
    RUN_LIMIT_MS,
  );

  it(
    "npm run test:stress's configuration exits non-zero",
    failsOnThePlantedTest(
      bin("vitest"),
      ["run", "--config", "vitest.stress.config.ts", "planted-failure"],
      /1 failed/,
    ),
    RUN_LIMIT_MS,
  );

  it(
    "Playwright with the browser tests' configuration exits non-zero",
    failsOnThePlantedTest(bin("playwright"), ["test", "planted-failure"], /1 failed/),
    RUN_LIMIT_MS,
  );
});
