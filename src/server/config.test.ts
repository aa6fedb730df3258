import { describe, expect, it } from "vitest";
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
});
