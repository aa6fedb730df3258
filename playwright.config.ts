import { defineConfig, devices } from "@playwright/test";
import { E2E } from "./e2e/support/env.js";

/**
 * GEARHOUSE_PLANTED_FAILURE=1 adds a test that fails on purpose and needs no shop (so no web server
 * is started); src/server/test/harness runs Playwright with it and expects a non-zero exit.
 */
const planted = process.env.GEARHOUSE_PLANTED_FAILURE === "1";

/** Journeys named *.settings.spec.ts change what every journey sees (keep them in one file, whose
 * tests run in order): see the project below. */
const SHOP_SETTINGS = /\.settings\.spec\.ts$/;

const browser = {
  ...devices["Desktop Chrome"],
  launchOptions: {
    executablePath: process.env.CHROME_PATH ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  },
};

/**
 * Browser tests against the built shop (`npm run build` first): e2e/support/stack.ts starts it on a
 * fresh embedded database, beside a local mail server and a local OpenID provider.
 */
export default defineConfig({
  testDir: "e2e",
  testMatch: planted ? ["**/*.spec.ts", "harness/planted-failure.fixture.ts"] : "**/*.spec.ts",
  outputDir: E2E.outputDir,
  fullyParallel: true,
  forbidOnly: Boolean(process.env.CI),
  workers: 2,
  retries: 0,
  // The list, and the page's snapshot of any journey that failed (CI keeps only the output).
  reporter: [["list"], ["./e2e/support/failure-context-reporter.ts"]],
  // Safety nets for a journey that hangs, not budgets: every step waits for what the page shows.
  // A journey takes seconds on a quiet machine and several times that beside CPU hogs.
  timeout: 180_000,
  expect: { timeout: 30_000 },
  use: {
    baseURL: E2E.baseURL,
    trace: "retain-on-failure",
  },
  projects: [
    {
      name: "chromium",
      testIgnore: SHOP_SETTINGS,
      use: browser,
    },
    {
      // Journeys that change shop-wide settings (the tax rate), which every other journey's prices
      // follow: they run once every other journey has finished, one at a time. Alone, without the
      // others first: `npx playwright test e2e/tax.settings.spec.ts --no-deps`.
      name: "shop-settings",
      testMatch: SHOP_SETTINGS,
      dependencies: ["chromium"],
      fullyParallel: false,
      use: browser,
    },
  ],
  webServer: planted
    ? undefined
    : {
        command: "node --import tsx e2e/support/stack.ts",
        url: `${E2E.baseURL}/readyz`,
        reuseExistingServer: false,
        timeout: 120_000,
        gracefulShutdown: { signal: "SIGTERM", timeout: 15_000 },
        stdout: "ignore",
        stderr: "pipe",
      },
});
