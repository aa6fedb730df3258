import { defineConfig } from "vitest/config";
import base from "./vitest.config.js";

/**
 * `npm run test:stress`: the reliability suite at the full figures of issue 6 (20 oversell rounds,
 * 10 kills, a longer outage; see src/server/test/reliability/figures.ts). `npm test` runs the same
 * files at a quick size.
 */
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: ["src/server/test/reliability/**/*.test.ts"],
    env: { STRESS: "1" },
  },
});
