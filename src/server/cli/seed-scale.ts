// `npm run seed:scale [-- --orders N --products N --users N --reviews N]`: adds a real shop's volume
// (by default 1,000,000 orders, 100,000 products, 100,000 users, 200,000 reviews) to the shop's
// database (DATABASE_URL, or the embedded one), beside what is there. For the scale benchmark and
// for trying the admin screens at size; the tests never load it by default.
import { parseArgs } from "node:util";
import pg from "pg";
import { loadConfig } from "../config.js";
import { createDatabase } from "../db/client.js";
import { runMigrations, withSetupLock } from "../db/migrate.js";
import { DEFAULT_SCALE, type ScaleCounts, seedScale } from "../db/seed/scale.js";
import { connectionString } from "./database.js";

function counts(): ScaleCounts {
  const { values } = parseArgs({
    options: Object.fromEntries(Object.keys(DEFAULT_SCALE).map((key) => [key, { type: "string" as const }])),
  });
  const chosen = { ...DEFAULT_SCALE };
  for (const key of Object.keys(DEFAULT_SCALE) as (keyof ScaleCounts)[]) {
    const value = values[key];
    if (value === undefined) continue;
    const n = Number(value.replace(/_/g, ""));
    if (!Number.isInteger(n) || n < 0 || n > 50_000_000)
      throw new Error(`--${key} takes a whole number, not ${value}`);
    chosen[key] = n;
  }
  if ((chosen.orders > 0 || chosen.reviews > 0) && chosen.users === 0)
    throw new Error("orders and reviews need --users above 0");
  if (chosen.orders > 0 && chosen.products === 0) throw new Error("orders need --products above 0");
  return chosen;
}

async function main() {
  const wanted = counts();
  const config = loadConfig();
  const { url, embedded } = await connectionString(config);
  const database = createDatabase(url, { max: 2 });
  const started = performance.now();
  try {
    await withSetupLock(database, () => runMigrations(database));
    console.log(
      `Adding ${Object.entries(wanted)
        .map(([k, n]) => `${n.toLocaleString("en-US")} ${k}`)
        .join(", ")}…`,
    );
    // A connection of its own: the shop's pool cuts statements off after seconds, and these take longer.
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      for (const step of await seedScale(client, wanted))
        console.log(
          `  ${step.name.padEnd(9)} ${step.rows.toLocaleString("en-US").padStart(10)} rows  ${(step.ms / 1000).toFixed(1)} s`,
        );
    } finally {
      await client.end();
    }
    console.log(`Done in ${((performance.now() - started) / 1000).toFixed(1)} s.`);
  } finally {
    await database.close();
    await embedded?.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
