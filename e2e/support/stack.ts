// The browser tests' world: a local SMTP server that keeps every mail in MAIL_DIR, a local OpenID
// provider standing in for Google, and the built shop on a fresh embedded database.
// Playwright starts this as its web server; it stops everything on SIGTERM/SIGINT.
import { spawn } from "node:child_process";
import { mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { OAuth2Server } from "oauth2-mock-server";
import { SMTPServer } from "smtp-server";
import { E2E } from "./env.js";

const root = path.resolve(import.meta.dirname, "../..");
rmSync(E2E.dataDir, { recursive: true, force: true });
mkdirSync(E2E.mailDir, { recursive: true });

let mailCount = 0;
const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ["STARTTLS"],
  onData(stream, session, callback) {
    const chunks: Buffer[] = [];
    stream.on("data", (c: Buffer) => chunks.push(c));
    stream.on("end", () => {
      mailCount += 1;
      const to = session.envelope.rcptTo.map((r) => r.address).join(",");
      // Written whole, then renamed into place: a test polling the folder never reads half a mail.
      const file = path.join(E2E.mailDir, `${Date.now()}-${mailCount}.eml`);
      writeFileSync(`${file}.part`, `X-Envelope-To: ${to}\r\n${Buffer.concat(chunks).toString("utf8")}`);
      renameSync(`${file}.part`, file);
      callback();
    });
  },
});
await new Promise<void>((resolve) => smtp.listen(E2E.smtpPort, "127.0.0.1", resolve));

// The provider signs in one Google user with a verified email.
const oidc = new OAuth2Server();
await oidc.issuer.keys.generate("RS256");
const googleProfile = {
  sub: "google-e2e-user",
  email: E2E.googleUser.email,
  email_verified: true,
  name: E2E.googleUser.name,
};
oidc.service.on("beforeTokenSigning", (token) => {
  Object.assign(token.payload, googleProfile, { aud: E2E.googleClientId });
});
oidc.service.on("beforeUserinfo", (res) => {
  res.body = googleProfile;
});
await oidc.start(E2E.oidcPort, "127.0.0.1");

const serverArgs = E2E.slot
  ? ["--import", "tsx", path.join(root, "src/server/main.ts")]
  : ["--enable-source-maps", path.join(root, "dist/server/main.js")];
const app = spawn(process.execPath, serverArgs, {
  cwd: root,
  stdio: "inherit",
  env: {
    ...process.env,
    NODE_ENV: "test",
    PORT: String(E2E.port),
    PUBLIC_URL: E2E.baseURL,
    DATA_DIR: E2E.dataDir,
    STATIC_DIR: E2E.staticDir,
    EMBEDDED_PG_PORT: String(E2E.pgPort),
    SEED_DEMO: "true",
    SMTP_URL: `smtp://127.0.0.1:${E2E.smtpPort}`,
    GOOGLE_CLIENT_ID: E2E.googleClientId,
    GOOGLE_CLIENT_SECRET: "e2e-secret",
    GOOGLE_ISSUER: oidc.issuer.url ?? "",
    ADMIN_EMAILS: E2E.adminEmail,
    LOG_LEVEL: "warn",
    // Every journey signs in from 127.0.0.1; the limit itself is covered by the API tests.
    AUTH_RATE_LIMIT_PER_MINUTE: "100000",
    // An order whose hold a journey ends (e2e/order-lifecycle.spec.ts) expires within a second.
    ORDER_EXPIRY_INTERVAL_SECONDS: "1",
    // Order mails go out within half a second (e2e/order-mails.spec.ts).
    MAIL_OUTBOX_INTERVAL_SECONDS: "0.5",
    // Back-in-stock mails are queued within a second of a restock (e2e/stock-notices.spec.ts).
    STOCK_NOTICE_INTERVAL_SECONDS: "1",
    // Journeys page through one customer's 30 unpaid orders (e2e/manage-orders.spec.ts); the
    // units' cap keeps its default, which e2e/order-lifecycle.spec.ts runs into.
    ORDER_MAX_UNPAID: "50",
    // Every journey books from 127.0.0.1, some of a product's whole stock: the booking limits and
    // the share are covered by the API tests (security/booking-limits.test.ts).
    ORDER_MAX_SHARE_PERCENT: "100",
    BOOKING_LIMIT_PER_HOUR: "100000",
    BOOKING_LIMIT_PER_ADDRESS_PER_HOUR: "0",
  },
});

let stopping = false;
async function stop(code: number) {
  if (stopping) return;
  stopping = true;
  if (app.exitCode === null) {
    app.kill("SIGTERM");
    await new Promise((r) => app.once("exit", r));
  }
  await oidc.stop();
  smtp.close();
  rmSync(E2E.dataDir, { recursive: true, force: true });
  process.exit(code);
}
app.on("exit", (code) => void stop(code ?? 1));
process.on("SIGTERM", () => void stop(0));
process.on("SIGINT", () => void stop(0));
