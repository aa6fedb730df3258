import { spawn } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { sql } from "drizzle-orm";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { createDatabase, type Database } from "../../db/client.js";
import { stockedProduct } from "../products.js";
import { until } from "../until.js";
import { cookieHeader } from "../users.js";
import { type Customer, ShopClient } from "./shop-client.js";
import { type ShopProcess, shopPlace, showOutputOnFailure, stopLeftoverPostgres } from "./shop-process.js";

// Backups of the embedded database (issue 19, item 4): `npm run db:backup` while customers keep
// ordering, `npm run db:restore` into an empty data directory, and a shop started on the restored
// data finds every order acknowledged before the backup began, its sums as consistent as ever.
// The backup carries nothing to sign in with (issue 28, item 4): no session, reset link or Google
// token is in the file, and on the restored shop old cookies and links are dead while passwords work.

const REPO_ROOT = path.resolve(import.meta.dirname, "../../../..");
const source = await shopPlace("backup");
const target = await shopPlace("restored");
let shop: ShopProcess | undefined;
let restored: ShopProcess | undefined;

afterAll(async () => {
  await shop?.stop();
  await restored?.stop();
  for (const place of [source, target]) {
    await stopLeftoverPostgres(place.dataDir);
    rmSync(place.dataDir, { recursive: true, force: true });
  }
});

/**
 * Runs one of the package's database commands (`npm run db:…`) on `dataDir`; its output (both
 * streams, as text), its standard output alone (bytes) and its exit code.
 */
function command(script: string, args: string[], place: { dataDir: string; pgPort: number }) {
  return new Promise<{ code: number | null; output: string; stdout: Buffer }>((resolve) => {
    const child = spawn(process.execPath, ["--import", "tsx", `src/server/cli/${script}.ts`, ...args], {
      cwd: REPO_ROOT,
      env: {
        ...process.env,
        NODE_ENV: "test",
        DATA_DIR: place.dataDir,
        EMBEDDED_PG_PORT: String(place.pgPort),
        DATABASE_URL: "",
      },
    });
    let output = "";
    const stdout: Buffer[] = [];
    child.stdout.on("data", (c: Buffer) => {
      output += c.toString();
      stdout.push(c);
    });
    child.stderr.on("data", (c: Buffer) => {
      output += c.toString();
    });
    child.on("close", (code) => resolve({ code, output, stdout: Buffer.concat(stdout) }));
  });
}

/** What must agree in any consistent snapshot: the running counts and sums with a full recount. */
const CONSISTENCY = sql`
  select
    (select count(*)::int from "order") as orders,
    (select coalesce(sum(n), 0)::int from overview_count where key like 'orders:%') as counted,
    (select count(*)::int from "order" where paid_at is not null) as paid,
    (select count(*)::int from invoice) as invoices,
    (select coalesce(max(number), 0)::int from invoice) as last_invoice,
    (select next - 1 from invoice_sequence)::int as sequence_at,
    (select coalesce(sum(orders), 0)::int from sales_day) as charted`;

const PASSWORD = "Passw0rd!";

/**
 * What an attacker with a copy of a backup would sign in with (issue 28, item 4), made in the
 * database before the backup: the customers' sessions, a password reset link asked for the first
 * customer, and the tokens Google gave for an account linked to the second.
 */
async function thingsToSignInWith(client: ShopClient, database: Database, customers: Customer[]) {
  const [first, second] = customers as [Customer, Customer];
  expect((await client.request("GET", "/api/me", { cookie: first.cookie })).status).toBe(200);
  const asked = await client.request("POST", "/api/auth/request-password-reset", {
    body: { email: first.email },
  });
  expect(asked.status, asked.text).toBe(200);
  let resetToken = "";
  await until("the reset link to be made", async () => {
    const rows = await database.db.execute<{ identifier: string }>(
      sql`select identifier from verification where identifier like 'reset-password:%'`,
    );
    resetToken = rows.rows[0]?.identifier.slice("reset-password:".length) ?? "";
    return resetToken !== "";
  });
  const google = {
    access: "ya29.google-access-secret",
    refresh: "1//google-refresh-secret",
    id: "eyJ.google-id-secret",
  };
  await database.db.execute(sql`
    insert into account (id, account_id, provider_id, user_id, access_token, refresh_token, id_token)
    select 'backup-google-link', 'google-subject-1', 'google', id, ${google.access}, ${google.refresh}, ${google.id}
    from "user" where email = ${second.email}`);
  const sessions = await database.db.execute<{ token: string }>(sql`select token from session`);
  expect(sessions.rows.length).toBeGreaterThanOrEqual(customers.length);
  return {
    first,
    resetToken,
    all: [resetToken, google.access, google.refresh, google.id, ...sessions.rows.map((r) => r.token)],
  };
}

/** On the restored shop: the old session cookie and reset link are dead, the password signs in, Google's tokens are gone. */
async function expectSignInAgain(
  url: string,
  database: Database,
  secrets: Awaited<ReturnType<typeof thingsToSignInWith>>,
) {
  const client = new ShopClient(url);
  try {
    expect((await client.request("GET", "/api/me", { cookie: secrets.first.cookie })).status).toBe(401);
    const reset = await client.request("POST", "/api/auth/reset-password", {
      body: { token: secrets.resetToken, newPassword: "Taken0ver!" },
    });
    expect(reset.status, reset.text).not.toBe(200);
    const signIn = await client.request("POST", "/api/auth/sign-in/email", {
      body: { email: secrets.first.email, password: PASSWORD },
    });
    expect(signIn.status, signIn.text).toBe(200);
    const cookie = cookieHeader(signIn.headers["set-cookie"]);
    expect((await client.request("GET", "/api/me", { cookie })).status).toBe(200);
  } finally {
    client.close();
  }
  const linked = await database.db.execute(sql`
    select access_token, refresh_token, id_token from account where id = 'backup-google-link'`);
  expect(linked.rows).toEqual([{ access_token: null, refresh_token: null, id_token: null }]);
}

describe("backups", () => {
  beforeEach(() => showOutputOnFailure(() => [shop, restored]));

  it("a backup taken while orders come in restores every order acknowledged before it began, and no way to sign in", async () => {
    shop = await source.start();
    const database = createDatabase(source.databaseUrl, { max: 2 });
    const productId = await stockedProduct(database.db, 1_000_000);
    const client = new ShopClient(shop.url);
    const customers = await Promise.all([client.signUp("Backup One"), client.signUp("Backup Two")]);

    // Customers order back to back until told to stop; each acknowledged order is noted.
    const acknowledged: string[] = [];
    let ordering = true;
    const load = customers.map(async (customer) => {
      while (ordering) {
        const res = await client.placeOrder(customer, productId, 10);
        if (res.status === 201) acknowledged.push(res.json<{ id: string }>().id);
      }
    });
    await until("orders to come in", () => acknowledged.length >= 20);

    const secrets = await thingsToSignInWith(client, database, customers);
    const before = [...acknowledged];
    const file = path.join(source.dataDir, "backups", "under-load.backup.gz");
    const backup = await command("db-backup", [file], source);
    expect(backup.code, backup.output).toBe(0);
    expect(backup.output).toMatch(/Backup written to .*under-load\.backup\.gz/);
    // Nothing in the file signs anyone in: no session token, no reset link, no Google token.
    const written = gunzipSync(readFileSync(file)).toString("utf8");
    for (const secret of secrets.all) expect(written.includes(secret), `${secret} in the backup`).toBe(false);
    // To standard output (to be encrypted on its way, docs/operations.md): the backup alone, as clean.
    const streamed = await command("db-backup", ["-"], source);
    expect(streamed.code, streamed.output).toBe(0);
    const piped = gunzipSync(streamed.stdout).toString("utf8");
    expect(piped).toMatch(/^\{"format":"gearhouse-backup-1"/);
    expect(piped).toContain("\ntable order\n");
    for (const secret of secrets.all) expect(piped.includes(secret), `${secret} in the backup`).toBe(false);
    // Orders went on while it ran.
    const during = acknowledged.length;
    await until("more orders after the backup", () => acknowledged.length > during);
    ordering = false;
    await Promise.all(load);
    client.close();
    await database.close();
    await shop.stop();
    shop = undefined;

    const restoring = await command("db-restore", [file], target);
    expect(restoring.code, restoring.output).toBe(0);
    expect(restoring.output).toMatch(/Restored [\d,]+ rows/);
    // Never over a database that is there.
    const again = await command("db-restore", [file], target);
    expect(again.code).not.toBe(0);
    expect(again.output).toContain("holds a database already");

    restored = await target.start();
    expect((await fetch(`${restored.url}/readyz`)).status).toBe(200);
    const back = createDatabase(target.databaseUrl, { max: 1 });
    try {
      const ids = await back.db.execute<{ id: string }>(sql`select id from "order"`);
      const present = new Set(ids.rows.map((r) => r.id));
      for (const id of before) expect(present.has(id), id).toBe(true);
      // A snapshot of one moment: no order acknowledged long after it (the load ran on past it).
      expect(present.size).toBeLessThan(acknowledged.length);
      const [figures] = (await back.db.execute(CONSISTENCY)).rows as Record<string, number>[];
      expect(figures?.counted).toBe(figures?.orders);
      expect(figures?.charted).toBe(figures?.orders);
      expect(figures?.invoices).toBe(figures?.paid);
      expect(figures?.sequence_at).toBe(figures?.last_invoice);
      // Its users sign in again: an old session, reset link or Google token is worth nothing.
      await expectSignInAgain(restored.url, back, secrets);
      // The restored shop takes new orders after the restored ones (ids, sequences, stock).
      const newClient = new ShopClient(restored.url);
      const customer = await newClient.signUp("After Restore");
      const placed = await newClient.placeOrder(customer, productId, 10);
      expect(placed.status, placed.text).toBe(201);
      newClient.close();
    } finally {
      await back.close();
    }
  });
});
