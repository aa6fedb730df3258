import { expect, test } from "@playwright/test";

// Fails on purpose: src/server/test/harness/exit-codes.test.ts runs Playwright on this file and
// expects it to fail. It is part of a run only with GEARHOUSE_PLANTED_FAILURE=1 (playwright.config.ts).
test("fails on purpose", () => {
  expect(1).toBe(2);
});
