import { defineConfig } from "vitest/config";

/**
 * GEARHOUSE_PLANTED_FAILURE=1 adds a test that fails on purpose; src/server/test/harness runs each
 * test command with it and checks that the command exits non-zero.
 */
export const plantedFailure =
  process.env.GEARHOUSE_PLANTED_FAILURE === "1" ? ["src/server/test/harness/planted-failure.fixture.ts"] : [];

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", ...plantedFailure],
    globalSetup: ["src/server/test/global-setup.ts"],
    pool: "forks",
    maxWorkers: 2,
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
});
