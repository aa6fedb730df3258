import { describe, expect, it } from "vitest";
import { startupMessages } from "../shared/messages/startup.js";
import { ConfigError, loadConfig } from "./config.js";

const base = { DATA_DIR: "/tmp/gearhouse-config-test", AUTH_SECRET: "x".repeat(40) };
const production = { ...base, NODE_ENV: "production", PUBLIC_URL: "https://shop.example" };
/** Production as the tests below start it: test payments, said so explicitly. */
const sandboxProduction = { ...production, PAYMENTS: "sandbox" };

describe("loadConfig", () => {
  it("works with nothing set but a data directory", () => {
    const config = loadConfig({ DATA_DIR: "/tmp/gearhouse-config-test" });
    expect(config.port).toBe(3000);
    expect(config.databaseUrl).toBeUndefined();
    expect(config.publicUrl).toBe("http://localhost:3000");
    expect(config.authSecret.length).toBeGreaterThanOrEqual(32);
    // The generated secret is kept for the next start.
    expect(loadConfig({ DATA_DIR: "/tmp/gearhouse-config-test" }).authSecret).toBe(config.authSecret);
    expect(config.seedDemo).toBe(true);
  });

  it("lists every bad key at once", () => {
    try {
      loadConfig({ ...base, PORT: "http", DATABASE_URL: "mysql://x", ADMIN_EMAILS: "a@b.co,nope" });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      const text = (error as ConfigError).problems.join("\n");
      expect(text).toContain("PORT");
      expect(text).toContain("DATABASE_URL");
      expect(text).toContain("ADMIN_EMAILS");
    }
  });

  it("bounds uploads under way per account (2) and the upload spool (200 MB, at least one upload) unless set", () => {
    expect(loadConfig(base)).toMatchObject({
      uploadConcurrencyPerAccount: 2,
      uploadSpoolBytes: 200 * 1024 * 1024,
    });
    expect(loadConfig({ ...base, UPLOAD_CONCURRENCY_PER_ACCOUNT: "5", UPLOAD_SPOOL_MB: "6" })).toMatchObject({
      uploadConcurrencyPerAccount: 5,
      uploadSpoolBytes: 6 * 1024 * 1024,
    });
    expect(() => loadConfig({ ...base, UPLOAD_CONCURRENCY_PER_ACCOUNT: "0" })).toThrow(
      /UPLOAD_CONCURRENCY_PER_ACCOUNT/,
    );
    // Less than one upload of the largest size with its framing.
    expect(() => loadConfig({ ...base, UPLOAD_SPOOL_MB: "5" })).toThrow(/UPLOAD_SPOOL_MB/);
  });

  it.each([
    ["reset and account-exists mails per address", 3, "AUTH_MAIL_LIMIT_PER_HOUR", "authMailLimitPerHour"],
    ["reviews per account", 5, "REVIEW_LIMIT_PER_HOUR", "reviewLimitPerHour"],
    ["invoice downloads per account", 60, "INVOICE_DOWNLOADS_PER_HOUR", "invoiceDownloadsPerHour"],
  ] as const)("caps %s at %i an hour unless %s says", (_what, fallback, key, field) => {
    expect(loadConfig(base)[field]).toBe(fallback);
    expect(loadConfig({ ...base, [key]: "20" })[field]).toBe(20);
    for (const bad of ["0", "-1", "2.5", "lots"]) {
      expect(() => loadConfig({ ...base, [key]: bad })).toThrow(new RegExp(key));
    }
  });

  it("limits uploads to 20 images and 50 MB a day, admins to 200 and 500 MB, unless the environment says", () => {
    const MB = 1024 * 1024;
    expect(loadConfig(base).uploadQuota).toEqual({
      user: { count: 20, bytes: 50 * MB },
      admin: { count: 200, bytes: 500 * MB },
    });
    const set = loadConfig({
      ...base,
      UPLOAD_LIMIT_PER_DAY: "5",
      UPLOAD_MB_PER_DAY: "8",
      ADMIN_UPLOAD_LIMIT_PER_DAY: "50",
      ADMIN_UPLOAD_MB_PER_DAY: "100",
    });
    expect(set.uploadQuota).toEqual({
      user: { count: 5, bytes: 8 * MB },
      admin: { count: 50, bytes: 100 * MB },
    });
    // A day's bytes must hold at least one upload of the largest size (5 MB).
    expect(() => loadConfig({ ...base, UPLOAD_MB_PER_DAY: "4" })).toThrow(/UPLOAD_MB_PER_DAY/);
    expect(() => loadConfig({ ...base, UPLOAD_LIMIT_PER_DAY: "0" })).toThrow(/UPLOAD_LIMIT_PER_DAY/);
    expect(loadConfig(base).imageSweepIntervalSeconds).toBe(600);
  });

  describe("TRUST_PROXY (issue 28, item 1: the balancer only, never any client)", () => {
    it("is off unless set", () => {
      for (const off of [undefined, "", "false", "0"])
        expect(loadConfig({ ...base, TRUST_PROXY: off }).trustProxy, String(off)).toBeUndefined();
    });

    it("takes a hop count, or the balancer's addresses and networks", () => {
      expect(loadConfig({ ...base, TRUST_PROXY: "1" }).trustProxy).toEqual({ hops: 1 });
      expect(loadConfig({ ...base, TRUST_PROXY: " 10.0.0.5, 10.0.1.0/24,fd00::/8 " }).trustProxy).toEqual({
        addresses: ["10.0.0.5", "10.0.1.0/24", "fd00::/8"],
      });
    });

    it("refuses true (any hop, so whatever the client wrote) and saying so as a network, with what to write instead", () => {
      for (const any of ["true", "0.0.0.0/0", "10.0.0.5,::/0"]) {
        try {
          loadConfig({ ...base, TRUST_PROXY: any });
          expect.unreachable(any);
        } catch (error) {
          expect(error).toBeInstanceOf(ConfigError);
          expect((error as ConfigError).problems).toEqual([`TRUST_PROXY: ${startupMessages.trustProxyAny}`]);
        }
      }
      expect(startupMessages.trustProxyAny).toMatch(/TRUST_PROXY=10\.0\.0\.5/);
    });

    it("refuses what is neither a hop count nor addresses, naming it", () => {
      expect(() => loadConfig({ ...base, TRUST_PROXY: "10.0.0.5,balancer.lan" })).toThrow(
        /TRUST_PROXY.*"balancer\.lan"/,
      );
      expect(() => loadConfig({ ...base, TRUST_PROXY: "yes" })).toThrow(/TRUST_PROXY/);
      expect(() => loadConfig({ ...base, TRUST_PROXY: "11" })).toThrow(/TRUST_PROXY/);
    });
  });

  it("serves the metrics port on 127.0.0.1 unless METRICS_HOST says, whatever HOST is (issue 28, item 11)", () => {
    const everywhere = loadConfig({ ...sandboxProduction, HOST: "0.0.0.0", METRICS_PORT: "9464" });
    expect(everywhere.host).toBe("0.0.0.0");
    expect(everywhere.metricsHost).toBe("127.0.0.1");
    expect(loadConfig({ ...sandboxProduction, METRICS_HOST: "10.0.0.7" }).metricsHost).toBe("10.0.0.7");
    expect(loadConfig({ ...base, METRICS_HOST: " " }).metricsHost).toBe("127.0.0.1");
  });

  describe("read replicas", () => {
    const primary = { ...base, DATABASE_URL: "postgres://shop:pw@db:5432/gearhouse" };

    it("are off unless DATABASE_REPLICA_URL is set, with a lag limit of 5 s", () => {
      expect(loadConfig(primary).replicas).toEqual({ urls: [], maxLagSeconds: 5 });
      expect(loadConfig({ ...primary, DATABASE_REPLICA_URL: " " }).replicas.urls).toEqual([]);
    });

    it("take a comma-separated list and REPLICA_MAX_LAG_SECONDS", () => {
      const config = loadConfig({
        ...primary,
        DATABASE_REPLICA_URL: "postgres://shop:pw@r1:5432/gearhouse, postgresql://shop:pw@r2/gearhouse",
        REPLICA_MAX_LAG_SECONDS: "2.5",
      });
      expect(config.replicas).toEqual({
        urls: ["postgres://shop:pw@r1:5432/gearhouse", "postgresql://shop:pw@r2/gearhouse"],
        maxLagSeconds: 2.5,
      });
    });

    it("refuse what is not a PostgreSQL address, a lag limit out of bounds, and a replica without DATABASE_URL", () => {
      expect(() => loadConfig({ ...primary, DATABASE_REPLICA_URL: "postgres://r1/g,mysql://r2/g" })).toThrow(
        /DATABASE_REPLICA_URL/,
      );
      expect(() => loadConfig({ ...primary, REPLICA_MAX_LAG_SECONDS: "0" })).toThrow(
        /REPLICA_MAX_LAG_SECONDS/,
      );
      expect(() => loadConfig({ ...base, DATABASE_REPLICA_URL: "postgres://r1/g" })).toThrow(/DATABASE_URL/);
    });
  });

  it("refuses production without AUTH_SECRET and PUBLIC_URL, and never seeds there", () => {
    expect(() => loadConfig({ NODE_ENV: "production", DATA_DIR: base.DATA_DIR })).toThrow(
      /AUTH_SECRET[\s\S]*PUBLIC_URL/,
    );
    const prod = loadConfig(sandboxProduction);
    expect(prod.seedDemo).toBe(false);
    expect(prod.secureCookies).toBe(true);
  });

  describe("payments (no test payments in production unless asked for)", () => {
    const stripeKeys = { STRIPE_SECRET_KEY: "sk_live_x", STRIPE_PUBLISHABLE_KEY: "pk_live_x" };

    it("refuses production without Stripe's keys unless PAYMENTS=sandbox says test payments are meant", () => {
      for (const env of [{}, { PAYMENTS: "" }, { STRIPE_SECRET_KEY: "sk_live_x" }]) {
        expect(() => loadConfig({ ...production, ...env }), JSON.stringify(env)).toThrow(
          `PAYMENTS: ${startupMessages.sandboxInProduction}`,
        );
      }
      expect(loadConfig(sandboxProduction).payments).toBe("sandbox");
      const live = loadConfig({ ...production, ...stripeKeys });
      expect(live.payments).toBe("stripe");
      expect(live.stripe?.secretKey).toBe("sk_live_x");
    });

    it("takes the sandbox outside production when Stripe's keys are missing", () => {
      for (const NODE_ENV of ["development", "test"]) {
        const config = loadConfig({ ...base, NODE_ENV });
        expect(config.payments).toBe("sandbox");
        expect(config.stripe).toBeUndefined();
      }
    });

    it("takes what PAYMENTS names: the sandbox despite keys, Stripe only with its keys", () => {
      const sandbox = loadConfig({ ...production, ...stripeKeys, PAYMENTS: "sandbox" });
      expect(sandbox.payments).toBe("sandbox");
      expect(sandbox.stripe).toBeUndefined();
      expect(() => loadConfig({ ...base, PAYMENTS: "stripe" })).toThrow(
        `PAYMENTS: ${startupMessages.stripeKeysMissing}`,
      );
      expect(() => loadConfig({ ...base, PAYMENTS: "paypal" })).toThrow(/PAYMENTS/);
    });
  });

  it("parses admin emails and provider settings", () => {
    const config = loadConfig({
      ...base,
      ADMIN_EMAILS: " Boss@Shop.Example , ops@shop.example",
      GOOGLE_CLIENT_ID: "id",
      GOOGLE_CLIENT_SECRET: "secret",
    });
    expect(config.adminEmails).toEqual(["boss@shop.example", "ops@shop.example"]);
    expect(config.google?.issuer).toBe("https://accounts.google.com");
    expect(config.stripe).toBeUndefined();
  });

  describe("listen address (the demo accounts' passwords are published)", () => {
    it("is loopback when HOST is not set and demo accounts exist, and says so", () => {
      for (const env of [
        {},
        { NODE_ENV: "development" },
        { NODE_ENV: "test" },
        { HOST: "" },
        { HOST: "  " },
      ]) {
        const config = loadConfig({ ...base, ...env });
        expect(config.host, JSON.stringify(env)).toBe("127.0.0.1");
        expect(config.hostNotice).toBe(startupMessages.loopbackOnly);
        expect(config.demoAccounts, JSON.stringify(env)).toBe(true);
      }
    });

    it("is HOST when it is set, demo accounts or not", () => {
      for (const host of ["0.0.0.0", "::", "192.168.1.20", "localhost"]) {
        const config = loadConfig({ ...base, HOST: host });
        expect(config.host).toBe(host);
        expect(config.hostNotice).toBeUndefined();
        expect(config.demoAccounts).toBe(true);
      }
      const prod = loadConfig({ ...sandboxProduction, HOST: "10.0.0.5" });
      expect(prod.host).toBe("10.0.0.5");
    });

    it("is every interface without demo accounts: production, or SEED_DEMO=false", () => {
      // SEED_DEMO=true in production seeds the catalog only, never the accounts.
      for (const env of [
        sandboxProduction,
        { ...sandboxProduction, SEED_DEMO: "true" },
        { ...base, SEED_DEMO: "false" },
      ]) {
        const config = loadConfig(env);
        expect(config.host, JSON.stringify(env)).toBe("0.0.0.0");
        expect(config.hostNotice).toBeUndefined();
        expect(config.demoAccounts, JSON.stringify(env)).toBe(false);
      }
    });
  });
});
