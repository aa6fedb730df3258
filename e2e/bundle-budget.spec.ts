import path from "node:path";
import { CSS_BUDGET_BYTES, initialBundle, JS_BUDGET_BYTES, routeOnlyModules } from "../bench/bundle-size.js";
import { E2E } from "./support/env.js";
import { expect, test } from "./support/fixtures.js";

/*
 * The bundle budget of `npm run bench` (bench/bundle-size.ts): sizes come from the Vite manifest of
 * the build these browser tests serve, so they are exact and need no browser. The payment page
 * loads Stripe's form lazily as well.
 */
const routeOnly = [
  ...routeOnlyModules(path.resolve(import.meta.dirname, "../src/client/app/router.tsx")),
  "features/payments/components/stripe-card-form.tsx",
];
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

test.describe("home page bundle budget", () => {
  test("downloads at most 150 KB of JavaScript and 30 KB of CSS (gzip -9) before it runs", () => {
    const bundle = initialBundle(E2E.staticDir, routeOnly);
    test.info().annotations.push({
      type: "initial bundle",
      description: `JS ${kb(bundle.jsGzipBytes)} in ${bundle.jsFiles.length} files, CSS ${kb(bundle.cssGzipBytes)}`,
    });
    expect(bundle.jsGzipBytes, `initial JS ${kb(bundle.jsGzipBytes)}`).toBeLessThanOrEqual(JS_BUDGET_BYTES);
    expect(bundle.cssGzipBytes, `initial CSS ${kb(bundle.cssGzipBytes)}`).toBeLessThanOrEqual(
      CSS_BUDGET_BYTES,
    );
  });

  test("loads dashboard, payment, admin and Stripe code only on their routes", () => {
    expect(routeOnly.length).toBeGreaterThanOrEqual(7);
    expect(initialBundle(E2E.staticDir, routeOnly).misplaced).toEqual([]);
  });
});
