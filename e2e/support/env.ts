import path from "node:path";

const root = path.resolve(import.meta.dirname, "../..");
const port = Number(process.env.E2E_PORT ?? 3100);

/** Where the browser tests' stack listens and keeps its files. */
export const E2E = {
  port,
  baseURL: `http://127.0.0.1:${port}`,
  pgPort: Number(process.env.E2E_PG_PORT ?? 54400),
  smtpPort: Number(process.env.E2E_SMTP_PORT ?? 2526),
  oidcPort: Number(process.env.E2E_OIDC_PORT ?? 3901),
  dataDir: path.join(root, ".e2e-data"),
  mailDir: path.join(root, ".e2e-data/mail"),
  googleClientId: "gearhouse-e2e",
  googleUser: { email: "gamer.google@example.com", name: "Gamer Google" },
  adminEmail: "e2e.admin@example.com",
};
