import path from "node:path";
import {
  CSS_BUDGET_BYTES,
  initialBundle,
  JS_BUDGET_BYTES,
  routeOnlyModules,
  textsInCode,
} from "../bench/bundle-size.js";
import { accountMessages } from "../src/shared/messages/accounts.js";
import { adminMessages } from "../src/shared/messages/admin.js";
import { catalogMessages } from "../src/shared/messages/catalog.js";
import { commonMessages } from "../src/shared/messages/common.js";
import { contentMessages } from "../src/shared/messages/content.js";
import { dashboardMessages } from "../src/shared/messages/dashboard.js";
import { homeMessages } from "../src/shared/messages/home.js";
import { orderMessages } from "../src/shared/messages/orders.js";
import { paymentMessages } from "../src/shared/messages/payments.js";
import { profileMessages } from "../src/shared/messages/profile.js";
import { reviewMessages } from "../src/shared/messages/reviews.js";
import { uploadMessages } from "../src/shared/messages/uploads.js";
import { userMessages } from "../src/shared/messages/users.js";
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

/** Every text of a messages object, its functions left out. */
function textsOf(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (typeof value !== "object" || value === null) return [];
  return Object.values(value).flatMap(textsOf);
}

/*
 * Issue 16: texts that only the dashboard and the admin area show. Every text of their modules
 * longer than 12 characters that no module of the public pages also holds: shorter ones ("Remove",
 * "Quantity") can be in the first download for reasons of their own.
 */
const publicTexts = new Set(
  [accountMessages, catalogMessages, commonMessages, contentMessages, homeMessages, reviewMessages].flatMap(
    textsOf,
  ),
);
const signedInOnlyTexts = [
  adminMessages,
  dashboardMessages,
  orderMessages,
  paymentMessages,
  profileMessages,
  uploadMessages,
  userMessages,
]
  .flatMap(textsOf)
  .filter((text) => text.length > 12 && !publicTexts.has(text));

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

  test("carries no text of the dashboard or the admin area in the first download", () => {
    expect(signedInOnlyTexts.length).toBeGreaterThan(100);
    const { jsFiles } = initialBundle(E2E.staticDir, routeOnly);
    const found = textsInCode(E2E.staticDir, jsFiles, signedInOnlyTexts);
    expect(found, "dashboard and admin texts in the home page's first download").toEqual([]);
  });
});
