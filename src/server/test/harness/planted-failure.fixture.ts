import { expect, it } from "vitest";

// Fails on purpose: exit-codes.test.ts runs the test commands on this file and expects them to
// fail. It is part of a run only with GEARHOUSE_PLANTED_FAILURE=1 (vitest.config.ts).
it("fails on purpose", () => {
  expect(1).toBe(2);
});
