import path from "node:path";

const root = path.resolve(import.meta.dirname, "../..");
/**
 * E2E_SLOT (0 by default) lets several browser runs share one checkout: slot N > 0 shifts every
 * port by 10 × N, keeps its files in .e2e-data-N, and serves the client built into .e2e-build-N
 * (`npx vite build --outDir ../../.e2e-build-N`) with the server run from source.
 */
const slot = Number(process.env.E2E_SLOT ?? 0);
const shift = slot * 10;
const port = Number(process.env.E2E_PORT ?? 3100 + shift);
const suffix = slot ? `-${slot}` : "";

/** Where the browser tests' stack listens and keeps its files. */
export const E2E = {
  slot,
  port,
  baseURL: `http://127.0.0.1:${port}`,
  pgPort: Number(process.env.E2E_PG_PORT ?? 54400 + shift),
  smtpPort: Number(process.env.E2E_SMTP_PORT ?? 2526 + shift),
  oidcPort: Number(process.env.E2E_OIDC_PORT ?? 3901 + shift),
  dataDir: path.join(root, `.e2e-data${suffix}`),
  mailDir: path.join(root, `.e2e-data${suffix}/mail`),
  /** Slot 0 runs the built shop (dist/); other slots run the server from source. */
  staticDir: slot ? path.join(root, `.e2e-build${suffix}`) : path.join(root, "dist/client"),
  outputDir: path.join(root, `test-results${suffix}`),
  googleClientId: "gearhouse-e2e",
  googleUser: { email: "gamer.google@example.com", name: "Gamer Google" },
  adminEmail: "e2e.admin@example.com",
};
