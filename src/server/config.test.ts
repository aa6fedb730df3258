import { describe, expect, it } from "vitest";
import { messages } from "../shared/messages.js";
import { ConfigError, loadConfig } from "./config.js";

const base = { DATA_DIR: "/tmp/gearhouse-config-test", AUTH_SECRET: "x".repeat(40) };

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

  it("caps reset and account-exists mails at 3 an hour per address unless AUTH_MAIL_LIMIT_PER_HOUR says", () => {
    expect(loadConfig(base).authMailLimitPerHour).toBe(3);
    expect(loadConfig({ ...base, AUTH_MAIL_LIMIT_PER_HOUR: "20" }).authMailLimitPerHour).toBe(20);
    for (const bad of ["0", "-1", "2.5", "lots"]) {
      expect(() => loadConfig({ ...base, AUTH_MAIL_LIMIT_PER_HOUR: bad })).toThrow(
        /AUTH_MAIL_LIMIT_PER_HOUR/,
      );
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

  it("refuses production without AUTH_SECRET and PUBLIC_URL, and never seeds there", () => {
    expect(() => loadConfig({ NODE_ENV: "production", DATA_DIR: base.DATA_DIR })).toThrow(
      /AUTH_SECRET[\s\S]*PUBLIC_URL/,
    );
    const prod = loadConfig({ ...base, NODE_ENV: "production", PUBLIC_URL: "https://shop.example" });
    expect(prod.seedDemo).toBe(false);
    expect(prod.secureCookies).toBe(true);
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
        expect(config.hostNotice).toBe(messages.startup.loopbackOnly);
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
      const prod = loadConfig({
        ...base,
        NODE_ENV: "production",
        PUBLIC_URL: "https://shop.example",
        HOST: "10.0.0.5",
      });
      expect(prod.host).toBe("10.0.0.5");
    });

    it("is every interface without demo accounts: production, or SEED_DEMO=false", () => {
      const production = { ...base, NODE_ENV: "production", PUBLIC_URL: "https://shop.example" };
      // SEED_DEMO=true in production seeds the catalog only, never the accounts.
      for (const env of [production, { ...production, SEED_DEMO: "true" }, { ...base, SEED_DEMO: "false" }]) {
        const config = loadConfig(env);
        expect(config.host, JSON.stringify(env)).toBe("0.0.0.0");
        expect(config.hostNotice).toBeUndefined();
        expect(config.demoAccounts, JSON.stringify(env)).toBe(false);
      }
    });
  });
});
