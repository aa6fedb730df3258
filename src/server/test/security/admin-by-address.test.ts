import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { accountMessages } from "../../../shared/messages/accounts.js";
import { startupMessages } from "../../../shared/messages/startup.js";
import { users } from "../../db/schema/index.js";
import { ADMIN_LINK_HOURS, sendAdminLink } from "../../features/accounts/admin-link.js";
import { setUpAccounts } from "../../features/accounts/setup.js";
import { setUpTestApp } from "../app.js";
import { memoryMailer, ORIGIN, signIn, signUp, uniqueEmail } from "../users.js";

/**
 * Admin by address (README.md, Guarantees): an ADMIN_EMAILS address gives role admin only to whoever proves
 * they own it. Sign-up (or `npm run admin -- grant`, through sendAdminLink) mails the address a
 * link; the role comes when the link is followed and the password set there, which also takes the
 * account from whoever registered the address first. Nothing is promoted at start.
 */

const OWNER = "owner@shop.example";
const LATE = "late.owner@shop.example";
const EXPIRED = "expired.owner@shop.example";
const NEWER = "newer.owner@shop.example";

const mailer = memoryMailer();
const ctx = setUpTestApp(
  { ADMIN_EMAILS: [OWNER, EXPIRED, NEWER].join(",") },
  { mailer, rateLimit: { max: 10_000, windowSeconds: 60 } },
);

const post = (url: string, payload: object) =>
  ctx.app.inject({ method: "POST", url, headers: { origin: ORIGIN }, payload });
const me = (cookie: string) => ctx.app.inject({ url: "/api/me", headers: { cookie } });
const usersList = (cookie: string) => ctx.app.inject({ url: "/api/users", headers: { cookie } });
const roleOf = async (id: string) =>
  (await ctx.database.db.select({ role: users.role }).from(users).where(eq(users.id, id)))[0]?.role;

const ADMIN_MAIL = "Confirm your email to become a Gearhouse admin";
const adminMails = (email: string) => mailer.sent.filter((m) => m.to === email && m.subject === ADMIN_MAIL);
const linkIn = (text: string) => new URL(text.match(/https?:\/\/\S+/)?.[0] ?? "http://x");

/** Waits for the address's admin-link mail number `n` (1-based) and returns the link's token. */
async function adminLinkToken(email: string, n = 1): Promise<string> {
  await expect.poll(() => adminMails(email).length).toBeGreaterThanOrEqual(n);
  const link = linkIn(adminMails(email)[n - 1]?.text ?? "");
  expect(link.pathname).toBe("/passwordReset");
  return link.searchParams.get("token") ?? "";
}

const follow = (token: string, newPassword: string) =>
  post("/api/auth/reset-password", { token, newPassword });

describe("an address listed in ADMIN_EMAILS", () => {
  it("gives no role at sign-up, whatever its case: a link goes to the address, and following it gives the role", async () => {
    // Whoever signs up first, here with the address in capitals, is a customer.
    const squatter = await signUp(ctx.app, { email: OWNER.toUpperCase(), password: "Squ4tter!" });
    expect(squatter.email).toBe(OWNER);
    expect((await me(squatter.cookie)).json().role).toBe("user");
    expect((await usersList(squatter.cookie)).statusCode).toBe(403);

    // The owner reads the mail and sets the password on the page the link opens.
    const token = await adminLinkToken(OWNER);
    expect(adminMails(OWNER)[0]?.text).toContain(`within ${ADMIN_LINK_HOURS} hours`);
    expect((await follow(token, "0wnerPassw0rd")).statusCode).toBe(200);
    expect(await roleOf(squatter.id)).toBe("admin");

    // The squatter is out: its session ended and its password replaced.
    expect((await me(squatter.cookie)).statusCode).toBe(401);
    expect((await signIn(ctx.app, OWNER, "Squ4tter!")).statusCode).toBe(401);
    const owner = await signIn(ctx.app, OWNER, "0wnerPassw0rd");
    expect(owner.statusCode).toBe(200);
    const cookie = String(owner.headers["set-cookie"]).split(";")[0] ?? "";
    expect((await usersList(cookie)).statusCode).toBe(200);

    // The link works once.
    expect((await follow(token, "AgainPassw0rd")).statusCode).toBe(400);
  });

  it("gives no role through a link past its time", async () => {
    const user = await signUp(ctx.app, { email: EXPIRED });
    const token = await adminLinkToken(EXPIRED);
    await ctx.database.db.execute(
      sql`update verification set expires_at = now() - interval '1 second' where value = ${user.id}`,
    );
    const res = await follow(token, "L4tePassword");
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toBe(accountMessages.resetLinkInvalid);
    expect(await roleOf(user.id)).toBe("user");
  });

  it("the newest link ends the admin link, and any followed link proves the address", async () => {
    const user = await signUp(ctx.app, { email: NEWER });
    const adminLink = await adminLinkToken(NEWER);
    expect((await post("/api/auth/request-password-reset", { email: NEWER })).statusCode).toBe(200);
    const reset = mailer.sent.filter((m) => m.to === NEWER && m.subject.startsWith("Reset")).at(-1);
    const resetToken = linkIn(reset?.text ?? "").searchParams.get("token") ?? "";
    expect((await follow(adminLink, "0ldLinkPassw0rd")).statusCode).toBe(400);
    expect(await roleOf(user.id)).toBe("user");
    expect((await follow(resetToken, "N3wLinkPassw0rd")).statusCode).toBe(200);
    expect(await roleOf(user.id)).toBe("admin");
  });

  it("is never promoted at start: an account registered before it was listed stays a customer", async () => {
    const early = await signUp(ctx.app, { email: LATE });
    const said: string[] = [];
    const listed = { ...ctx.config, adminEmails: [...ctx.config.adminEmails, LATE] };
    await setUpAccounts(ctx.database.db, ctx.app.auth, listed, (line) => said.push(line));
    expect(await roleOf(early.id)).toBe("user");
    expect(said).toContain(startupMessages.adminNotProved(LATE));
    // Addresses that did prove themselves are not named.
    expect(said.join("\n")).not.toContain(`lists ${OWNER},`);
  });
});

describe("npm run admin -- grant for an address not listed", () => {
  it("mails a link from the command line and gives no role until it is followed", async () => {
    const user = await signUp(ctx.app);
    const dataDir = mkdtempSync(path.join(os.tmpdir(), "gearhouse-grant-"));
    const run = spawnSync(
      process.execPath,
      ["--import", "tsx", "src/server/cli/admin.ts", "grant", user.email],
      {
        cwd: path.resolve(import.meta.dirname, "../../../.."),
        encoding: "utf8",
        timeout: 120_000,
        env: {
          PATH: process.env.PATH ?? "",
          NODE_ENV: "test",
          DATABASE_URL: ctx.url,
          DATA_DIR: dataDir,
          AUTH_SECRET: ctx.config.authSecret,
          PUBLIC_URL: ctx.config.publicUrl,
        },
      },
    );
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    expect(run.stdout).toContain(`A link was sent to ${user.email}`);
    expect(await roleOf(user.id)).toBe("user");
    // Without SMTP_URL the mail is saved in DATA_DIR/outbox.
    const [file] = readdirSync(path.join(dataDir, "outbox"));
    const mail = JSON.parse(readFileSync(path.join(dataDir, "outbox", file ?? ""), "utf8"));
    expect(mail).toMatchObject({ to: user.email, subject: ADMIN_MAIL });
    const token = linkIn(mail.text).searchParams.get("token") ?? "";
    expect((await follow(token, "Cl1Granted")).statusCode).toBe(200);
    expect(await roleOf(user.id)).toBe("admin");
  });

  it("gives the role when the link is followed, and only then", async () => {
    const user = await signUp(ctx.app);
    await (await sendAdminLink(ctx.database.db, mailer, ctx.config, user)).mailed;
    expect(await roleOf(user.id)).toBe("user");
    const token = await adminLinkToken(user.email);
    expect((await follow(token, "Gr4ntedPassw0rd")).statusCode).toBe(200);
    expect(await roleOf(user.id)).toBe("admin");
  });

  it("an ordinary reset of an account nobody granted gives no role", async () => {
    const user = await signUp(ctx.app, { email: uniqueEmail("plain") });
    expect((await post("/api/auth/request-password-reset", { email: user.email })).statusCode).toBe(200);
    const reset = mailer.sent.filter((m) => m.to === user.email).at(-1);
    const token = linkIn(reset?.text ?? "").searchParams.get("token") ?? "";
    expect((await follow(token, "Pl4inPassw0rd")).statusCode).toBe(200);
    expect(await roleOf(user.id)).toBe("user");
    expect(adminMails(user.email)).toEqual([]);
  });

  it("a grant past its time gives no role, even through a newer reset link", async () => {
    const user = await signUp(ctx.app);
    await (await sendAdminLink(ctx.database.db, mailer, ctx.config, user)).mailed;
    await ctx.database.db.execute(
      sql`update verification set expires_at = now() - interval '1 second' where identifier = ${`admin-grant:${user.id}`}`,
    );
    expect((await post("/api/auth/request-password-reset", { email: user.email })).statusCode).toBe(200);
    const reset = mailer.sent.filter((m) => m.to === user.email && m.subject.startsWith("Reset")).at(-1);
    const token = linkIn(reset?.text ?? "").searchParams.get("token") ?? "";
    expect((await follow(token, "Exp1redGrant")).statusCode).toBe(200);
    expect(await roleOf(user.id)).toBe("user");
  });
});
