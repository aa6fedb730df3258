import { afterAll, beforeAll, expect, it } from "vitest";
import { createTestApp, type TestContext } from "../app.js";

// Run by exit-codes.test.ts (GEARHOUSE_PLANTED_FAILURE=1): the first test times out on purpose while
// it is still sending requests; the second checks that those requests stopped being served, so a
// timed-out test cannot run on into the next one.
let ctx: TestContext;
let servedAfterTimeout = 0;
let loopEnded = false;

beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(async () => {
  await ctx.close();
});

it("times out on purpose while it sends requests", { timeout: 500 }, async ({ signal }) => {
  try {
    for (;;) {
      const sentAfterTimeout = signal.aborted;
      const res = await ctx.app.inject({ url: "/api/products" });
      if (sentAfterTimeout && res.statusCode === 200) servedAfterTimeout += 1;
      expect(res.statusCode).toBe(200);
    }
  } finally {
    loopEnded = true;
  }
});

it("finds the timed-out test's requests refused and its loop ended", async () => {
  while (!loopEnded) await new Promise((r) => setImmediate(r));
  expect(servedAfterTimeout).toBe(0);
});
