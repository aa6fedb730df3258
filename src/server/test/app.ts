import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { FastifyInstance } from "fastify";
import pg from "pg";
import { afterAll, beforeAll, inject } from "vitest";
import { type BuildOptions, buildApp } from "../app.js";
import { type Config, loadConfig } from "../config.js";
import { createDatabase, type Database } from "../db/client.js";
import { stoppedTest } from "./current-test.js";
import { TEMPLATE_DB } from "./template.js";
import { signUp, signUpAdmin, type TestUser } from "./users.js";

export interface TestContext {
  app: FastifyInstance;
  database: Database;
  config: Config;
  url: string;
  close(): Promise<void>;
}

/**
 * A fresh database cloned from the migrated, seeded template, or (`empty`) one with nothing in
 * it, for a test that migrates it itself.
 */
export async function createTestDatabase({
  empty = false,
} = {}): Promise<{ url: string; drop(): Promise<void> }> {
  const adminUrl = inject("testDatabaseAdminUrl");
  const name = `t_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`create database ${name} template ${empty ? "template0" : TEMPLATE_DB}`);
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
    // Most tests book many orders as one customer: the cap on unpaid orders is lifted here and
    // tested with its defaults where it is the subject (features/orders/lifecycle.test.ts).
    ORDER_MAX_UNPAID: "1000000",
    ORDER_MAX_UNPAID_UNITS: "1000000000",
    // Likewise the share of a product one customer may hold, and the bookings an hour (every
    // inject comes from 127.0.0.1); security/booking-limits.test.ts tests them with their defaults.
    ORDER_MAX_SHARE_PERCENT: "100",
    BOOKING_LIMIT_PER_HOUR: "1000000000",
    BOOKING_LIMIT_PER_ADDRESS_PER_HOUR: "0",
    // Order mails are sent when a test asks (sendDueMails), not by a timer beside every test.
    MAIL_OUTBOX_INTERVAL_SECONDS: "0",
    // Back-in-stock mails are queued when a test asks (runStockNotices), likewise.
    STOCK_NOTICE_INTERVAL_SECONDS: "0",
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

/**
 * Another instance on the test file's database (`url()`, read when it starts), with a config of
 * its own: the function returned builds it with a pool of `poolSize`; it and its pool are closed
 * in an `afterAll` this registers (call it in the describe block that uses the instance).
 */
export function anotherInstance(url: () => string) {
  let app: FastifyInstance | undefined;
  let database: Database | undefined;
  afterAll(async () => {
    await app?.close();
    await database?.close();
  });
  return async (config: Config, poolSize: number): Promise<FastifyInstance> => {
    database = createDatabase(url(), { max: poolSize });
    app = await buildApp(config, database, { logger: false });
    return app;
  };
}

type SignUpOverrides = Parameters<typeof signUp>[1];

/** A test file's app from `setUpTestApp`: the context without `close`, which its `afterAll` calls. */
export interface TestApp extends Omit<TestContext, "close"> {
  /** A customer signed up in a `beforeAll` of its own, after the app's (see `setUpTestApp`). */
  signedUpUser(overrides?: SignUpOverrides): TestUser;
  /** The same, given role admin (`signUpAdmin`). */
  signedUpAdmin(overrides?: SignUpOverrides): TestUser;
}

/**
 * What `make` makes in a `beforeAll`, closed by `close` in an `afterAll`, for code that names it
 * before the hooks run: the object returned reads the made value's `keys` at each use (methods bound
 * to it), and throws if used before the `beforeAll` or after the `afterAll`.
 */
export function madeInBeforeAll<T extends object, K extends keyof T>(
  what: string,
  keys: readonly K[],
  make: () => Promise<T>,
  close: (made: T) => Promise<unknown> = async () => {},
): Pick<T, K> {
  let value: T | undefined;
  beforeAll(async () => {
    value = await make();
  });
  afterAll(async () => {
    const made = value;
    value = undefined;
    if (made) await close(made);
  });
  const view = {} as Pick<T, K>;
  for (const key of keys) {
    const get = () => {
      if (value === undefined) throw new Error(`${what} is made in beforeAll: use it in a hook or a test`);
      const field = value[key];
      return typeof field === "function" ? field.bind(value) : field;
    };
    Object.defineProperty(view, key, { get, enumerable: true });
  }
  return view;
}

/**
 * The test file's app: built on a fresh database in a `beforeAll` and closed in an `afterAll`, which
 * this registers. What it returns reads the app when used, so the file names it at the top. The
 * users of `signedUpUser` and `signedUpAdmin` are signed up in `beforeAll`s of their own, which run
 * after the app's, in the order they are named. `env` may be a function, called in the `beforeAll`,
 * for settings made by an earlier hook (a stand-in's address).
 */
export function setUpTestApp(
  env: Record<string, string> | (() => Record<string, string>) = {},
  options: BuildOptions = {},
): TestApp {
  const made = madeInBeforeAll(
    "The test app",
    ["app", "database", "config", "url"],
    () => createTestApp(typeof env === "function" ? env() : env, options),
    (context) => context.close(),
  );
  return Object.assign(made, {
    signedUpUser: (overrides: SignUpOverrides = {}) => signedUpInBeforeAll(() => made.app, overrides),
    signedUpAdmin: (overrides: SignUpOverrides = {}) =>
      signedUpInBeforeAll(() => made.app, overrides, signUpAdmin),
  });
}

/**
 * A user signed up on `app()` in a `beforeAll` of its own, which runs after the hooks named before
 * it (the app's); the user is read when used.
 */
export function signedUpInBeforeAll(
  app: () => FastifyInstance,
  overrides: SignUpOverrides = {},
  signUpWith: typeof signUp = signUp,
): TestUser {
  return madeInBeforeAll("A user signed up in beforeAll", ["email", "password", "cookie", "id"], () =>
    signUpWith(app(), overrides),
  );
}
