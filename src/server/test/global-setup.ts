import { rmSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { createDatabase } from "../db/client.js";
import { embeddedCredentialsFile, startEmbeddedPostgres } from "../db/embedded.js";
import { runMigrations } from "../db/migrate.js";
import { seedDemoCatalog } from "../db/seed/index.js";
import { freePort } from "./free-port.js";
import { TEMPLATE_DB } from "./template.js";

declare module "vitest" {
  export interface ProvidedContext {
    /** A connection string to the server's maintenance database, for creating test databases. */
    testDatabaseAdminUrl: string;
  }
}

function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

/**
 * Starts one PostgreSQL for the whole run (embedded, or TEST_DATABASE_URL) and builds a migrated,
 * seeded template database; each test file clones it into a fresh database of its own.
 */
export default async function setup(project: TestProject) {
  let stop = async () => {};
  let adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) {
    const port = process.env.TEST_PG_PORT ? Number(process.env.TEST_PG_PORT) : await freePort();
    // One directory per port, so runs on different ports can share a checkout.
    const dir = path.resolve(`.test-data/postgres-${port}`);
    rmSync(dir, { recursive: true, force: true });
    rmSync(embeddedCredentialsFile(dir), { force: true });
    const embedded = await startEmbeddedPostgres(dir, port).catch((error: unknown) => {
      // Vitest then reports "No test files found": this line says why.
      const reason = error instanceof Error ? error.message : String(error);
      throw new Error(`The tests' PostgreSQL could not start (TEST_PG_PORT=${port}): ${reason}`);
    });
    // The tests make databases (CREATE DATABASE, a template each file clones): as the superuser.
    adminUrl = withDatabase(embedded.adminUrl, "postgres");
    stop = async () => {
      await embedded.stop();
      rmSync(dir, { recursive: true, force: true });
      rmSync(embeddedCredentialsFile(dir), { force: true });
    };
  }
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`drop database if exists ${TEMPLATE_DB} with (force)`);
  await admin.query(`create database ${TEMPLATE_DB}`);
  const template = createDatabase(withDatabase(adminUrl, TEMPLATE_DB), { max: 2 });
  await runMigrations(template);
  await seedDemoCatalog(template.db);
  await template.close();
  await admin.end();
  project.provide("testDatabaseAdminUrl", adminUrl);
  return async () => {
    await stop();
  };
}
