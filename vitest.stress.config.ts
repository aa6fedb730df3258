import { defineConfig } from "vitest/config";
import base, { plantedFailure } from "./vitest.config.js";

/**
 * `npm run test:stress`: the reliability suite at its full figures (20 oversell rounds, 10 kills,
 * a longer outage; see src/server/test/reliability/figures.ts). `npm test` runs the same files at a
 * quick size.
 */
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: ["src/server/test/reliability/**/*.test.ts", ...plantedFailure],
    env: { STRESS: "1" },
  },
});
