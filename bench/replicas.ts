// `npm run bench:replicas`: reads per second through one shop instance with the primary alone, and
// with one streaming replica taking the reads a replica may answer (docs/scaling.md, "Read
// replicas"). The read is the admin's product list, which no cache holds: a session lookup on the
// primary, then the page and its count on whichever database the router picks. The primary and the
// replica are PostgreSQL 17 from the embedded package, started here on this machine
// (src/server/test/replica.ts), so all of them share its cores with the shop and wrk.
import { execFile } from "node:child_process";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { buildApp } from "../src/server/app.js";
import { loadConfig } from "../src/server/config.js";
import { createDatabase } from "../src/server/db/client.js";
import { PRIMARY_COOKIE } from "../src/server/plugins/replicas.js";
import { freePort } from "../src/server/test/free-port.js";
import { startReplicaPair } from "../src/server/test/replica.js";
import { signUpAdmin } from "../src/server/test/users.js";

// Asynchronous: the shop answers wrk from this very process.
const run = promisify(execFile);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
const CONNECTIONS = 16;
const URL_PATH = "/api/admin/products?pageSize=24&page=2";

interface Measured {
  mode: string;
  requestsPerSecond: number;
  non2xx: number;
  /** Reads the router sent to the replica, and to the primary. */
  toReplica: number;
  toPrimary: number;
}

const series = (text: string, name: string) =>
  Number(
    text
      .split("\n")
      .find((l) => l.startsWith(`${name} `))
      ?.slice(name.length + 1) ?? 0,
  );

async function measure(
  pair: { primaryUrl: string; replicaUrl: string },
  replica: boolean,
): Promise<Measured> {
  const config = loadConfig({
    NODE_ENV: "test",
    DATA_DIR: mkdtempSync(path.join(os.tmpdir(), "gearhouse-bench-")),
    AUTH_SECRET: "bench-secret-bench-secret-bench-secret-0123",
    LOG_LEVEL: "silent",
    MAIL_OUTBOX_INTERVAL_SECONDS: "0",
    DATABASE_URL: pair.primaryUrl,
    ...(replica ? { DATABASE_REPLICA_URL: pair.replicaUrl } : {}),
    REPLICA_MAX_LAG_SECONDS: "5",
    METRICS_TOKEN: "bench-token-0123456789",
  });
  const database = createDatabase(pair.primaryUrl);
  const app = await buildApp(config, database, { logger: false });
  try {
    await app.ready();
    const admin = await signUpAdmin(app);
    const cookie = admin.cookie
      .split("; ")
      .filter((c) => !c.startsWith(`${PRIMARY_COOKIE}=`))
      .join("; ");
    const port = await freePort();
    await app.listen({ port, host: "127.0.0.1" });
    // Past the primary cookie's life of the sign-up, and the cache's start: nothing here is cached anyway.
    const url = `http://127.0.0.1:${port}${URL_PATH}`;
    await run("wrk", ["-t1", `-c${CONNECTIONS}`, "-d3s", "-H", `Cookie: ${cookie}`, url]);
    const { stdout: out } = await run("wrk", [
      "-t1",
      `-c${CONNECTIONS}`,
      `-d${SECONDS}s`,
      "-H",
      `Cookie: ${cookie}`,
      url,
    ]);
    if (process.env.BENCH_DEBUG) console.log(out);
    const metrics = (
      await app.inject({ url: "/metrics", headers: { authorization: "Bearer bench-token-0123456789" } })
    ).body;
    return {
      mode: replica ? "primary + one replica" : "primary alone",
      requestsPerSecond: Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? Number.NaN),
      non2xx: Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0),
      toReplica: series(metrics, 'gearhouse_db_reads_routed_total{target="replica"}'),
      toPrimary: series(metrics, 'gearhouse_db_reads_routed_total{target="primary"}'),
    };
  } finally {
    await app.close();
    await database.close();
  }
}

async function main() {
  const pair = await startReplicaPair();
  try {
    const results: Measured[] = [];
    // Alternated, twice each, so a slower moment of the shared machine does not fall on one mode.
    for (const replica of [false, true, false, true]) results.push(await measure(pair, replica));
    console.log(`GET ${URL_PATH}, wrk -t1 -c${CONNECTIONS} -d${SECONDS}s, ${new Date().toISOString()}`);
    console.table(results);
  } finally {
    await pair.stop();
  }
}

await main();
