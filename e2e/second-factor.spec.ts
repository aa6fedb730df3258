import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import type { CDPSession, Page } from "@playwright/test";
import { embeddedDatabaseUrls } from "../src/server/db/embedded.js";
import { totpCode } from "../src/server/test/totp-code.js";
import { accountMessages } from "../src/shared/messages/accounts.js";
import { secondFactorMessages as m } from "../src/shared/messages/second-factor.js";
import { userMessages } from "../src/shared/messages/users.js";
import { expectAccessible } from "./support/axe.js";
import { origin, PASSWORD } from "./support/data.js";
import { E2E } from "./support/env.js";
import { expect, test } from "./support/fixtures.js";

/**
 * Second factors in a real browser (issue 32): an authenticator app whose codes the test computes
 * (RFC 6238), backup codes, and passkeys through Chromium's virtual authenticator. Passkeys need a
 * domain (WebAuthn refuses an IP address as the relying party), and the admin rule needs
 * ADMIN_SECOND_FACTOR=required: both run on a second instance of the shop, on the same database,
 * at http://localhost:PORT (cookies are per host, so its sessions stay apart from 127.0.0.1's).
 */

const root = path.resolve(import.meta.dirname, "..");

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer().listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? resolve(address.port) : reject()));
    });
  });
}

let strict: { url: string; process: ChildProcess } | undefined;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  const port = await freePort();
  const database = embeddedDatabaseUrls(path.join(E2E.dataDir, "postgres"), E2E.pgPort);
  if (!database) throw new Error("the e2e database has no credentials file");
  const dataDir = path.join(E2E.dataDir, `required-${port}`);
  mkdirSync(dataDir, { recursive: true });
  const url = `http://localhost:${port}`;
  const args = E2E.slot
    ? ["--import", "tsx", path.join(root, "src/server/main.ts")]
    : ["--enable-source-maps", path.join(root, "dist/server/main.js")];
  const child = spawn(process.execPath, args, {
    cwd: root,
    stdio: "inherit",
    env: {
      ...process.env,
      NODE_ENV: "test",
      PORT: String(port),
      HOST: "127.0.0.1",
      PUBLIC_URL: url,
      DATA_DIR: dataDir,
      DATABASE_URL: database.url,
      STATIC_DIR: E2E.staticDir,
      SEED_DEMO: "false",
      SMTP_URL: `smtp://127.0.0.1:${E2E.smtpPort}`,
      ADMIN_SECOND_FACTOR: "required",
      AUTH_RATE_LIMIT_PER_MINUTE: "100000",
      LOG_LEVEL: "warn",
    },
  });
  strict = { url, process: child };
  // Ready when it answers /readyz (migrations are the first instance's, already applied).
  await expect
    .poll(
      async () =>
        fetch(`${url}/readyz`).then(
          (r) => r.status,
          () => 0,
        ),
      { timeout: 90_000 },
    )
    .toBe(200);
});

test.afterAll(async () => {
  strict?.process.kill("SIGTERM");
});

/** A code of the app not used before by this test: the step after the current one, then the one after. */
function nextCode(secret: string, used: Set<string>): string {
  for (const offset of [30_000, 0, -30_000]) {
    const code = totpCode(secret, Date.now() + offset);
    if (!used.has(code)) {
      used.add(code);
      return code;
    }
  }
  throw new Error("every code of the window was used");
}

async function signInWithPassword(page: Page, email: string, base = "") {
  await page.goto(`${base}/login`);
  await page.getByLabel(accountMessages.form.email, { exact: true }).fill(email);
  await page.getByLabel(accountMessages.form.password, { exact: true }).fill(PASSWORD);
  await page.getByRole("button", { name: accountMessages.form.signIn, exact: true }).click();
}

async function signOut(page: Page, base = "") {
  const res = await page.request.post(`${base}/api/auth/sign-out`, {
    headers: { origin: base || E2E.baseURL },
    data: {},
  });
  expect(res.status()).toBe(200);
}

test("a customer sets up an authenticator app and signs in with its codes", async ({ page, customer }) => {
  const used = new Set<string>();
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto("/dashboard/myProfile");
  const card = page.getByRole("region", { name: m.heading });
  await expect(card.getByTestId("app-status")).toHaveText(m.appOff);
  await card.getByRole("button", { name: m.setUpApp }).click();
  await card.getByLabel(m.password).fill("Wrong-passw0rd");
  await card.getByRole("button", { name: m.continue }).click();
  await expect(card.getByText(m.passwordInvalid)).toBeVisible();
  await card.getByLabel(m.password).fill(PASSWORD);
  await card.getByRole("button", { name: m.continue }).click();
  await expect(card.getByRole("img", { name: m.qrAlt })).toBeVisible();
  const key = (await card.getByTestId("totp-key").textContent()) ?? "";
  expect(key).toMatch(/^[A-Z2-7]+=*$/);
  await expectAccessible(page, "profile, app set-up, 1440 px");
  await card.getByLabel(m.code, { exact: true }).fill(nextCode(key, used));
  await card.getByRole("button", { name: m.confirmApp }).click();
  await expect(card.getByText(m.appEnabled)).toBeVisible();
  const codes = await card.getByTestId("backup-codes").getByRole("listitem").allTextContents();
  expect(codes).toHaveLength(10);
  await page.setViewportSize({ width: 390, height: 844 });
  await expectAccessible(page, "profile, backup codes, 390 px");
  await card.getByRole("button", { name: m.done }).click();
  await expect(card.getByTestId("app-status")).toHaveText(`${m.appOn} · ${m.backupCodesLeft(10)}`);

  // The password alone no longer signs in: the second step asks for a code.
  await signOut(page);
  await page.setViewportSize({ width: 1440, height: 900 });
  await signInWithPassword(page, customer.email);
  const step = page.getByRole("region", { name: m.signInHeading });
  await expect(step).toBeVisible();
  expect((await page.request.get("/api/me")).status()).toBe(401);
  await expectAccessible(page, "login, second step, 1440 px");
  await step.getByLabel(m.code, { exact: true }).fill("000000");
  await step.getByRole("button", { name: m.verify }).click();
  await expect(step.getByText(m.codeInvalid)).toBeVisible();
  const code = nextCode(key, used);
  await step.getByLabel(m.code, { exact: true }).fill(code);
  await step.getByRole("button", { name: m.verify }).click();
  await expect(page).not.toHaveURL(/\/login/);
  expect((await page.request.get("/api/me")).status()).toBe(200);

  // The same code again, on the next sign-in: refused as used. A backup code signs in once.
  await signOut(page);
  await signInWithPassword(page, customer.email);
  await step.getByLabel(m.code, { exact: true }).fill(code);
  await step.getByRole("button", { name: m.verify }).click();
  await expect(step.getByText(m.codeUsed)).toBeVisible();
  await step.getByRole("button", { name: m.useBackupCode }).click();
  await step.getByLabel(m.backupCode).fill(codes[0] ?? "");
  await step.getByRole("button", { name: m.verify }).click();
  await expect(page).not.toHaveURL(/\/login/);
  await page.goto("/dashboard/myProfile");
  await expect(card.getByTestId("app-status")).toHaveText(`${m.appOn} · ${m.backupCodesLeft(9)}`);

  // Removed with the password: the next sign-in needs none.
  await card.getByRole("button", { name: m.removeApp }).click();
  const dialog = page.getByRole("dialog", { name: m.removeApp });
  await dialog.getByLabel(m.password).fill(PASSWORD);
  await dialog.getByRole("button", { name: m.remove }).click();
  await expect(card.getByTestId("app-status")).toHaveText(m.appOff);
});

/** Chromium's virtual authenticator on this page: a platform passkey store that says yes at once. */
async function virtualAuthenticator(page: Page): Promise<CDPSession> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return cdp;
}

test("an admin without a second factor is sent to enrol one, then steps up with a passkey", async ({
  page,
  adminApi,
  users,
}) => {
  const base = strict?.url ?? "";
  // A new customer, made admin by the demo admin on the first instance.
  const person = await users.signUp(page.request, { tag: "second-factor-admin" });
  const promoted = await adminApi.put(`/api/users/${person.id}/role`, {
    headers: origin,
    data: { role: "admin" },
  });
  expect(promoted.status()).toBe(200);

  await page.setViewportSize({ width: 1440, height: 900 });
  await virtualAuthenticator(page);
  await signInWithPassword(page, person.email, base);
  await expect(page).not.toHaveURL(/\/login/);

  // Every admin page answers 403 with the enrolment code: the client opens enrolment.
  await page.goto(`${base}/dashboard/users`);
  await expect(page).toHaveURL(/\/dashboard\/myProfile\?secondFactor=required/);
  const card = page.getByRole("region", { name: m.heading });
  await expect(card.getByRole("alert")).toHaveText(m.enrolRequired);
  await expectAccessible(page, "profile, enrolment required, 1440 px");
  await card.getByLabel(m.passkeyName).fill("Laptop");
  await card.getByRole("button", { name: m.addPasskey }).click();
  await expect(page.getByText(m.addedPasskey)).toBeVisible();
  await expect(card.getByText("Laptop", { exact: true })).toBeVisible();

  await page.goto(`${base}/dashboard/users`);
  await expect(page.getByRole("searchbox", { name: userMessages.searchLabel })).toBeVisible();

  // A password sign-in proves no factor: the first admin request asks for the passkey in place.
  await signOut(page, base);
  await signInWithPassword(page, person.email, base);
  await expect(page).not.toHaveURL(/\/login/);
  await page.goto(`${base}/dashboard/users`);
  const stepUp = page.getByRole("dialog", { name: m.stepUpHeading });
  await expect(stepUp).toBeVisible();
  await expectAccessible(page, "step-up dialog, 1440 px");
  await stepUp.getByRole("button", { name: m.usePasskey }).click();
  await expect(stepUp).toBeHidden();
  await expect(page.getByRole("searchbox", { name: userMessages.searchLabel })).toBeVisible();

  // And the login page signs in with the passkey alone.
  await signOut(page, base);
  await page.goto(`${base}/login`);
  await page.getByRole("button", { name: accountMessages.form.signInWithPasskey }).click();
  await expect(page).not.toHaveURL(/\/login/);
  await page.goto(`${base}/dashboard/users`);
  await expect(page.getByRole("searchbox", { name: userMessages.searchLabel })).toBeVisible();
});
