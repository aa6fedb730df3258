import { defineConfig } from "vitest/config";

/**
 * GEARHOUSE_PLANTED_FAILURE=1 adds a test that fails on purpose; src/server/test/harness runs each
 * test command with it and checks that the command exits non-zero.
 */
export const plantedFailure =
  process.env.GEARHOUSE_PLANTED_FAILURE === "1" ? ["src/server/test/harness/*.fixture.ts"] : [];

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", ...plantedFailure],
    globalSetup: ["src/server/test/global-setup.ts"],
    setupFiles: ["src/server/test/setup.ts"],
    pool: "forks",
    maxWorkers: 2,
    // Safety nets for a test that hangs, not budgets: every test does a fixed amount of work and
    // waits for conditions, and a test that times out is stopped (src/server/test/current-test.ts).
    // The heaviest take 20 s on a quiet 2-core machine and several times that beside CPU hogs.
    testTimeout: 180_000,
    hookTimeout: 180_000,
  },
});
