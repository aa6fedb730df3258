import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { startupMessages } from "../../../shared/messages/startup.js";
import { testModeBanner } from "../../features/payments/test-mode.js";
import { createTestApp } from "../app.js";

/**
 * Test payments (README.md, Guarantees): without Stripe's keys the shop once took orders in
 * production with the public test card. Production now refuses to start without a real provider
 * unless PAYMENTS=sandbox says test payments are meant, and then every page says so.
 */

const REPO_ROOT = path.resolve(import.meta.dirname, "../../../..");

/** Starts the shop as `npm start` does (from the sources) with only this environment. */
function startShop(env: Record<string, string>) {
  return spawnSync(process.execPath, ["--import", "tsx", "src/server/main.ts"], {
    cwd: REPO_ROOT,
    encoding: "utf8",
    timeout: 120_000,
    env: {
      PATH: process.env.PATH ?? "",
      NODE_ENV: "production",
      PUBLIC_URL: "https://shop.example",
      AUTH_SECRET: "s".repeat(40),
      DATA_DIR: mkdtempSync(path.join(os.tmpdir(), "gearhouse-prod-payments-")),
      // Never reached: the configuration is refused first.
      DATABASE_URL: "postgres://nobody@127.0.0.1:1/none",
      ...env,
    },
  });
}

describe("production without a real payment provider", () => {
  it("refuses to start, and says how to choose", () => {
    const run = startShop({});
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(`PAYMENTS: ${startupMessages.sandboxInProduction}`);
  });

  it("refuses PAYMENTS=stripe without Stripe's keys", () => {
    const run = startShop({ PAYMENTS: "stripe", STRIPE_SECRET_KEY: "sk_live_only" });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(`PAYMENTS: ${startupMessages.stripeKeysMissing}`);
  });
});

describe("production with PAYMENTS=sandbox", () => {
  it("takes test payments, and every page shows the test-mode banner", async () => {
    const client = mkdtempSync(path.join(os.tmpdir(), "gearhouse-prod-client-"));
    mkdirSync(path.join(client, "pages"));
    writeFileSync(path.join(client, "index.html"), "<html><body><div id=root></div></body></html>");
    writeFileSync(path.join(client, "pages", "index.html"), "<html><body><main>home</main></body></html>");
    const ctx = await createTestApp({
      NODE_ENV: "production",
      PUBLIC_URL: "https://shop.example",
      PAYMENTS: "sandbox",
      STATIC_DIR: client,
    });
    try {
      expect(ctx.config.payments).toBe("sandbox");
      for (const url of ["/", "/dashboard/payment/x", "/login"]) {
        const page = await ctx.app.inject({ url });
        expect(page.statusCode).toBe(200);
        expect(page.body, url).toContain(`<body>${testModeBanner()}`);
      }
    } finally {
      await ctx.close();
    }
  });
});
