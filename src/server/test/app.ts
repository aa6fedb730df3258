import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { FastifyInstance } from "fastify";
import pg from "pg";
import { inject } from "vitest";
import { type BuildOptions, buildApp } from "../app.js";
import { type Config, loadConfig } from "../config.js";
import { createDatabase, type Database } from "../db/client.js";
import { stoppedTest } from "./current-test.js";
import { TEMPLATE_DB } from "./template.js";

export interface TestContext {
  app: FastifyInstance;
  database: Database;
  config: Config;
  url: string;
  close(): Promise<void>;
}

/** A fresh database cloned from the migrated, seeded template. */
export async function createTestDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const adminUrl = inject("testDatabaseAdminUrl");
  const name = `t_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`create database ${name} template ${TEMPLATE_DB}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`).finally(() => c.end());
    },
  };
}

export function testConfig(overrides: Record<string, string> = {}): Config {
  return loadConfig({
    NODE_ENV: "test",
    DATA_DIR: mkdtempSync(path.join(os.tmpdir(), "gearhouse-test-")),
    AUTH_SECRET: "test-secret-test-secret-test-secret-0123",
    LOG_LEVEL: "silent",
    PUBLIC_URL: "http://localhost:3000",
    STATIC_DIR: path.join(os.tmpdir(), "gearhouse-no-client"),
    ...overrides,
  });
}

/** Builds the app on a fresh database; call `close` in afterAll. */
export async function createTestApp(
  env: Record<string, string> = {},
  options: BuildOptions = {},
): Promise<TestContext> {
  const testDb = await createTestDatabase();
  const config = testConfig({ ...env });
  const database = createDatabase(testDb.url, { max: 10 });
  const app = await buildApp(config, database, { logger: false, ...options });
  // A test that timed out may still be sending requests: from then on every request is refused,
  // so its work ends and changes nothing that a later test checks.
  app.addHook("onRequest", async () => {
    const stopped = stoppedTest();
    if (stopped)
      throw new Error(`Refused: the test "${stopped}" was stopped (timed out) and may still be running.`);
  });
  await app.ready();
  return {
    app,
    database,
    config,
    url: testDb.url,
    close: async () => {
      await app.close();
      await database.close();
      await testDb.drop();
    },
  };
}
