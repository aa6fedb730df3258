import { execFileSync } from "node:child_process";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "../..");

/**
 * `count` distinct ports that nothing listens on now, from the system's ephemeral range: each
 * browser run gets its own, so two runs on one machine never clash.
 */
function freePorts(count: number): number[] {
  const script = `
    const net = require("node:net");
    const servers = [];
    for (let i = 0; i < ${count}; i += 1) {
      const server = net.createServer().listen(0, "127.0.0.1", () => {
        servers.push(server);
        if (servers.length < ${count}) return;
        process.stdout.write(servers.map((s) => s.address().port).join(","));
        for (const s of servers) s.close();
      });
    }`;
  return execFileSync(process.execPath, ["-e", script], { encoding: "utf8" }).split(",").map(Number);
}

// Chosen once, by the process that loads the configuration first; Playwright's workers and the web
// server it starts inherit the environment, so every process of the run agrees on them.
if (!process.env.E2E_PORT) {
  const [port, pg, smtp, oidc] = freePorts(4);
  process.env.E2E_PORT = String(port);
  process.env.E2E_PG_PORT ??= String(pg);
  process.env.E2E_SMTP_PORT ??= String(smtp);
  process.env.E2E_OIDC_PORT ??= String(oidc);
}

/**
 * E2E_SLOT (0 by default) lets several browser runs share one checkout while the client is being
 * rebuilt: slot N > 0 serves the client built into .e2e-build-N (`npx vite build --outDir
 * ../../.e2e-build-N`) with the server run from source, and writes its reports to test-results-N.
 */
const slot = Number(process.env.E2E_SLOT ?? 0);
const suffix = slot ? `-${slot}` : "";
const port = Number(process.env.E2E_PORT);
const dataDir = path.join(root, `.e2e-data-${port}`);

/** Where the browser tests' stack listens and keeps its files. */
export const E2E = {
  slot,
  port,
  baseURL: `http://127.0.0.1:${port}`,
  pgPort: Number(process.env.E2E_PG_PORT),
  smtpPort: Number(process.env.E2E_SMTP_PORT),
  oidcPort: Number(process.env.E2E_OIDC_PORT),
  dataDir,
  mailDir: path.join(dataDir, "mail"),
  /** Slot 0 runs the built shop (dist/); other slots run the server from source. */
  staticDir: slot ? path.join(root, `.e2e-build${suffix}`) : path.join(root, "dist/client"),
  outputDir: path.join(root, `test-results${suffix}`),
  googleClientId: "gearhouse-e2e",
  googleUser: { email: "gamer.google@example.com", name: "Gamer Google" },
  adminEmail: "e2e.admin@example.com",
};
